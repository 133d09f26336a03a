package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;

/**
 * Every test leaves its thread without locks: the handles a test did not close (because
 * an assertion failed before it could, or because it forgot) are closed after it, so that
 * the next test on the same thread starts with an empty {@link LockContext}; a test that
 * passed but left handles behind fails, naming them. Registered for every test class
 * through JUnit's extension auto-detection.
 */
public class NoLocksLeftOnTheTestThread implements AfterEachCallback {

	@Override
	public void afterEach(ExtensionContext context) {
		List<LockHandle> left = LockContext.current().locks();
		if (left.isEmpty()) {
			return;
		}
		List<LockHandle> innermostFirst = new ArrayList<>(left);
		Collections.reverse(innermostFirst);
		for (LockHandle handle : innermostFirst) {
			try {
				handle.close();
			}
			catch (RuntimeException ex) {
				// Its client may be closed already; the scope forgets it all the same.
			}
		}
		if (context.getExecutionException().isEmpty()) {
			throw new AssertionError(context.getDisplayName() + " left locks on its thread: " + left);
		}
	}

}
