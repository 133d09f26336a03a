package io.github.distlock.shedlock;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.DistlockZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ShedLock's own contract for lock providers, as ShedLock's test support states it for
 * every provider (extension, {@code lockAtLeastFor}, {@code lockAtMostFor} and the
 * eight-thread fuzz test included), run against {@link DistlockLockProvider} on a real
 * ZooKeeper. Locked and unlocked mean what ZooKeeper shows another client (an observer
 * with a session of its own, so that the provider's own requests being ahead in its
 * session's order proves nothing): a lock node under {@code mutex/shedlock/<name>}, or
 * none.
 */
class DistlockLockProviderContractTests extends AbstractExtensibleLockProviderIntegrationTest {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension().shared();

	private DistlockNode node;

	private DistlockNode observer;

	private DistlockLockProvider provider;

	@BeforeEach
	void startNodes() {
		this.node = zookeeper.get().newNode();
		this.observer = zookeeper.get().newNode();
		this.provider = new DistlockLockProvider(this.node.getLocks());
	}

	@Override
	protected ExtensibleLockProvider getLockProvider() {
		return this.provider;
	}

	@Override
	protected void assertLocked(String lockName) {
		assertThat(LockNodes.of(this.observer.getClient(), lockName)).as("lock nodes of '%s'", lockName).hasSize(1);
	}

	@Override
	protected void assertUnlocked(String lockName) {
		assertThat(LockNodes.of(this.observer.getClient(), lockName)).as("lock nodes of '%s'", lockName).isEmpty();
	}

}
