package io.github.distlock.interceptor;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Hostile arguments stay inside one segment of the lock path, and an argument that is a
 * ZooKeeper node name is that segment unchanged: checked on the lock nodes ZooKeeper
 * actually holds while the method runs.
 */
class LockPathResolutionTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static UserService service;

	@BeforeAll
	static void start() throws Exception {
		AnnotationConfigApplicationContext context = contexts.start(UserConfiguration.class);
		service = context.getBean(UserService.class);
	}

	@ParameterizedTest(name = "[{index}] {0} -> {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
			a/../b        | a%2F..%2Fb
			..            | %2E%2E
			.             | %2E
			/             | %2F
			100%          | 100%25
			a%2Fb         | a%252Fb
			\uD83D\uDE00  | %F0%9F%98%80
			\u0085        | %C2%85
			""")
	void argumentBecomesOneEscapedSegmentOfTheLockNode(String name, String segment) throws Exception {
		assertThat(service.lockedNodes(name)).containsExactly(segment);
	}

	@ParameterizedTest(name = "[{index}] {0}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
			orders:42
			"with space"
			user@example.com
			a+b
			Z\u00fcrich
			...
			""")
	void argumentThatIsAZooKeeperNodeNameIsTheSegmentUnchanged(String name) throws Exception {
		assertThat(service.lockedNodes(name)).containsExactly(name);
	}

	@Test
	void literalTextIsTakenAsEscapedSoEscapedDotsNameTheSegmentAValueOfTwoDotsGives() throws Exception {
		assertThat(service.lockedNodesUnderEscapedDots()).containsExactly("%2E%2E");
	}

	@Test
	void nulCharacterIsEscaped() throws Exception {
		assertThat(service.lockedNodes("a\u0000b")).containsExactly("a%00b");
	}

	@Test
	void tenThousandCharacterArgumentIsRejectedNamingMethodAndTemplate() {
		int runsBefore = service.runs();
		assertThatExceptionOfType(InvalidLockPathException.class)
			.isThrownBy(() -> service.lockedNodes("x".repeat(10_000)))
			.withMessageContaining("UserService.lockedNodes(String)")
			.withMessageContaining("users/#{#name}/profile")
			.withMessageContaining("#{#name}");
		assertThat(service.runs()).isEqualTo(runsBefore);
	}

	@Test
	void nullAndEmptyArgumentsAreRejectedNamingMethodAndTemplate() {
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> service.lockedNodes(null))
			.withMessageContaining("UserService.lockedNodes(String)")
			.withMessageContaining("users/#{#name}/profile")
			.withMessageContaining("null");
		assertThatExceptionOfType(InvalidLockPathException.class).isThrownBy(() -> service.lockedNodes(""))
			.withMessageContaining("UserService.lockedNodes(String)")
			.withMessageContaining("empty");
	}

	static class UserService {

		private final CuratorFramework client;

		private int runs;

		UserService(CuratorFramework client) {
			this.client = client;
		}

		public int runs() {
			return this.runs;
		}

		/**
		 * Returns the user segments under /mutex/users whose profile holds a lock node
		 * while the method runs (segments of earlier calls remain until ZooKeeper reaps
		 * the empty containers).
		 */
		@DistributedLock("users/#{#name}/profile")
		public List<String> lockedNodes(String name) throws Exception {
			this.runs++;
			return profilesWithLockNodes();
		}

		/** The same as {@code lockedNodes("..")}, with the segment written literally. */
		@DistributedLock("users/%2E%2E/profile")
		public List<String> lockedNodesUnderEscapedDots() throws Exception {
			return profilesWithLockNodes();
		}

		private List<String> profilesWithLockNodes() throws Exception {
			List<String> locked = new ArrayList<>();
			for (String user : this.client.getChildren().forPath("/mutex/users")) {
				if (!this.client.getChildren().forPath("/mutex/users/" + user + "/profile").isEmpty()) {
					locked.add(user);
				}
			}
			return locked;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserConfiguration {

		@Bean
		UserService userService(CuratorFramework client) {
			return new UserService(client);
		}

	}

}
