package io.github.distlock.test;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Resets what a test with
 * {@link AutoConfigureDistlockZooKeeper @AutoConfigureDistlockZooKeeper} changed: after
 * each test method it stops the nodes the test started, undoes every fault, cleans the
 * server and clears the {@link LockRecorder}.
 */
public class DistlockZooKeeperTestExecutionListener extends AbstractTestExecutionListener {

	/**
	 * After Spring's {@code DirtiesContextTestExecutionListener} (3000): "after"
	 * callbacks run in reverse order, so the kit cleans up before a dirtied context is
	 * closed.
	 */
	@Override
	public int getOrder() {
		return 3100;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		if (applies(testContext)) {
			testContext.getApplicationContext().getBean(LockRecorder.class).clear();
		}
	}

	@Override
	public void afterTestMethod(TestContext testContext) {
		if (!applies(testContext)) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		TestZooKeeper zooKeeper = context.getBean(TestZooKeeper.class);
		zooKeeper.closeNodes();
		zooKeeper.heal();
		zooKeeper.clean();
		context.getBean(LockRecorder.class).clear();
	}

	private static boolean applies(TestContext testContext) {
		return TestContextAnnotationUtils.findMergedAnnotation(testContext.getTestClass(),
				AutoConfigureDistlockZooKeeper.class) != null && testContext.hasApplicationContext();
	}

}
