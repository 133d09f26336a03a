package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lock path that is also the parent of another lock path of the same kind (built in
 * code, where the startup check cannot see it) puts the inner lock's parent node into the
 * outer lock's queue. distlock leaves that child out of the queue and says so once;
 * Apache Curator's {@code InterProcessMutex} sorts it among the lock nodes and waits on
 * it, which is why the annotations refuse nesting paths.
 */
class NestedPathsTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void distlockLeavesTheInnerLocksParentOutWhereCuratorWaitsOnIt() throws Exception {
		ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
			.getLogger(ForeignNodes.class);
		ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
		logged.start();
		logger.addAppender(logged);
		try {
			takeTheNestedLocks();
		}
		finally {
			logger.detachAppender(logged);
		}
		String warning = "Lock queue /distlock-test/mutex/nested holds '-1', which is not a lock node";
		assertThat(logged.list).filteredOn((event) -> event.getFormattedMessage().startsWith(warning)).hasSize(1);
	}

	private void takeTheNestedLocks() throws Exception {
		CuratorLocks inner = this.zookeeper.newNode();
		CuratorLocks outer = this.zookeeper.newNode();
		CuratorFramework curator = this.zookeeper.newClient();
		// '-1' sorts before every sequence number in Curator's order, as any name
		// below '0'.
		try (LockHandle innerHold = inner.mutex(LockPath.of("nested", "-1")).acquire(Duration.ofSeconds(5))) {
			assertThat(Faults.children(curator, "/mutex/nested")).containsExactly("-1");
			for (int i = 0; i < 2; i++) {
				try (LockHandle outerHold = outer.mutex("nested").acquire(Duration.ofSeconds(5))) {
					assertThat(outerHold.isHeld()).isTrue();
				}
			}
			InterProcessMutex raw = new InterProcessMutex(curator, "/mutex/nested");
			// Curator's queue puts '-1' first and watches it: it is not let in while the
			// inner lock's parent exists, however long it waits.
			assertThat(raw.acquire(500, TimeUnit.MILLISECONDS)).isFalse();
			assertThat(Faults.children(curator, "/mutex/nested")).containsExactly("-1");
		}
	}

}
