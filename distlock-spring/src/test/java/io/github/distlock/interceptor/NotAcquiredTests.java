package io.github.distlock.interceptor;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInvocation;
import org.junit.jupiter.api.Test;

import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.OnNotLeader;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.NotLeaderException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interceptor's one decision for a call whose lock was not acquired, whatever the
 * method returns: skip, fallback or fail, and the caller's timeout built there once.
 */
class NotAcquiredTests {

	private static final LockPath PATH = LockPath.of("jobs");

	private final AnnotationLockOperationSource source = new AnnotationLockOperationSource();

	@Test
	void timeoutUnderThrowFailsWithTheTimeoutNamingTheMethodAroundTheEnginesOwn() {
		LockTimeoutException engine = timeout();
		NotAcquired outcome = NotAcquired.decide(call("throwing"), new CompletionException(engine));
		assertThat(outcome).isInstanceOfSatisfying(NotAcquired.Fail.class,
				(fail) -> assertThat(fail.exception()).isInstanceOfSatisfying(LockTimeoutException.class, (told) -> {
					assertThat(told.getMessage())
						.startsWith("@DistributedLock(\"jobs\") on NotAcquiredTests.Jobs.throwing()")
						.endsWith(engine.getMessage());
					assertThat(told.getCause()).isSameAs(engine);
					assertThat(told.getPath()).isEqualTo(PATH);
				}));
	}

	@Test
	void timeoutUnderSkipReturnsTheEmptyValueOfTheReturnType() throws Throwable {
		assertThat(NotAcquired.decide(call("skipping"), timeout()).proceedInstead(invocationOf("skipping"))).isNull();
		assertThat(NotAcquired.decide(call("skippingOptional"), timeout())
			.proceedInstead(invocationOf("skippingOptional"))).isEqualTo(Optional.empty());
		assertThat(NotAcquired.decide(call("skippingInt"), timeout()).proceedInstead(invocationOf("skippingInt")))
			.isEqualTo(0);
		assertThat(NotAcquired.decide(call("skippingStage"), timeout()).proceedInstead(invocationOf("skippingStage")))
			.isInstanceOfSatisfying(CompletableFuture.class, (stage) -> assertThat(stage).isCompletedWithValue(null));
	}

	@Test
	void timeoutWithAFallbackCallsItWithTheTimeoutTheCallerWouldHaveGot() throws Throwable {
		NotAcquired outcome = NotAcquired.decide(call("withFallback"), timeout());
		assertThat(outcome).isInstanceOfSatisfying(NotAcquired.Fallback.class,
				(fallback) -> assertThat(fallback.timeout().getMessage())
					.startsWith("@DistributedLock(\"jobs\") on NotAcquiredTests.Jobs.withFallback()"));
		assertThat(outcome.proceedInstead(invocationOf("withFallback"))).isEqualTo("fallback after 0ms");
	}

	@Test
	void otherFailuresFailTheCallDescribedWhateverThePolicy() {
		NotAcquired outcome = NotAcquired.decide(call("skipping"),
				new LockAcquisitionException("ZooKeeper said no", null));
		assertThat(outcome).isInstanceOfSatisfying(NotAcquired.Fail.class, (fail) -> assertThat(fail.exception())
			.isInstanceOf(LockAcquisitionException.class)
			.hasMessageStartingWith(
					"@DistributedLock(\"jobs\") on NotAcquiredTests.Jobs.skipping(): acquiring lock 'jobs' failed"));
	}

	@Test
	void notLeadingIsTheSameDecisionUnderOnNotLeader() throws Throwable {
		NotLeaderException notLeader = new NotLeaderException("not leading", "jobs");
		assertThat(NotAcquired.decide(leaderCall("leaderSkipping", OnNotLeader.SKIP), notLeader)
			.proceedInstead(invocationOf("leaderSkipping"))).isNull();
		assertThat(NotAcquired.decide(leaderCall("leaderThrowing", OnNotLeader.THROW), notLeader))
			.isEqualTo(new NotAcquired.Fail(notLeader));
	}

	private LockCall call(String name) {
		LockOperation operation = this.source.getOperation(method(name), Jobs.class);
		assertThat(operation).isNotNull();
		return new LockCall(operation, null, List.of(PATH), Duration.ZERO, Duration.ZERO, "this thread");
	}

	private LockCall leaderCall(String name, OnNotLeader onNotLeader) {
		Supplier<Leadership> leadership = () -> {
			throw new IllegalStateException("not asked");
		};
		LockOperation operation = new LeaderOnlyOperationSource(leadership).getOperation(method(name), Jobs.class);
		assertThat(operation).isInstanceOfSatisfying(LeaderOnlyOperation.class,
				(leader) -> assertThat(leader.onNotLeader()).isEqualTo(onNotLeader));
		return new LockCall(operation, null, List.of(PATH), Duration.ZERO, Duration.ZERO, "this thread");
	}

	private static MethodInvocation invocationOf(String name) {
		Method method = method(name);
		return new MethodInvocation() {

			@Override
			public Method getMethod() {
				return method;
			}

			@Override
			public Object[] getArguments() {
				return new Object[0];
			}

			@Override
			public Object proceed() {
				throw new IllegalStateException("the method must not run");
			}

			@Override
			public Object getThis() {
				return new Jobs();
			}

			@Override
			public AccessibleObject getStaticPart() {
				return method;
			}

		};
	}

	private static LockTimeoutException timeout() {
		return new LockTimeoutException("Lock 'jobs' was not acquired within 0ms: it is held by another holder", PATH,
				Duration.ZERO, null);
	}

	private static Method method(String name) {
		Method method = ReflectionUtils.findMethod(Jobs.class, name);
		assertThat(method).as(name).isNotNull();
		return method;
	}

	static class Jobs {

		@DistributedLock("jobs")
		public String throwing() {
			return "ran";
		}

		@DistributedLock(value = "jobs", onTimeout = OnTimeout.SKIP)
		public String skipping() {
			return "ran";
		}

		@DistributedLock(value = "jobs", onTimeout = OnTimeout.SKIP)
		public Optional<String> skippingOptional() {
			return Optional.of("ran");
		}

		@DistributedLock(value = "jobs", onTimeout = OnTimeout.SKIP)
		public int skippingInt() {
			return 1;
		}

		@DistributedLock(value = "jobs", onTimeout = OnTimeout.SKIP)
		public CompletableFuture<String> skippingStage() {
			return CompletableFuture.completedFuture("ran");
		}

		@DistributedLock(value = "jobs", fallback = "fallback")
		public String withFallback() {
			return "ran";
		}

		String fallback(LockTimeoutException timeout) {
			return "fallback after " + timeout.getWaitTime().toMillis() + "ms";
		}

		@LeaderOnly("jobs")
		public String leaderSkipping() {
			return "ran";
		}

		@LeaderOnly(value = "jobs", onNotLeader = OnNotLeader.THROW)
		public String leaderThrowing() {
			return "ran";
		}

	}

}
