package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.core.Leadership;
import io.github.distlock.scheduling.ScheduledOnceOperation;
import io.github.distlock.scheduling.ScheduledOnceOperationSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three operation sources look for their annotation in one order (the order of
 * {@link AbstractFallbackOperationSource}): each finds an annotation on an interface
 * method, whether the target class is known or not; the lock annotations and
 * {@code @LeaderOnly} are found on an interface type and on the class, and a method's
 * annotation overrides its class's. ({@code @ScheduledOnce} names one job per method, so
 * it annotates methods only.)
 */
class OperationSourceFallbackOrderTests {

	static Stream<Arguments> allSources() {
		return Stream.of(Arguments.of(Kind.LOCK), Arguments.of(Kind.LEADER), Arguments.of(Kind.SCHEDULED));
	}

	static Stream<Arguments> typeLevelSources() {
		return Stream.of(Arguments.of(Kind.LOCK), Arguments.of(Kind.LEADER));
	}

	@ParameterizedTest
	@MethodSource("allSources")
	void annotationOnInterfaceMethodIsFound(Kind kind) {
		Fixture fixture = kind.fixture();
		Method declared = method(fixture.onInterfaceMethod(), "run");
		Method implemented = method(fixture.onInterfaceMethodImpl(), "run");
		assertThat(fixture.name(declared, fixture.onInterfaceMethodImpl())).isEqualTo("interface-method");
		assertThat(fixture.name(implemented, fixture.onInterfaceMethodImpl())).isEqualTo("interface-method");
		assertThat(fixture.name(declared, null)).isEqualTo("interface-method");
		assertThat(fixture.source().hasOperations(fixture.onInterfaceMethodImpl())).isTrue();
	}

	@ParameterizedTest
	@MethodSource("typeLevelSources")
	void annotationOnInterfaceTypeIsFound(Kind kind) {
		Fixture fixture = kind.fixture();
		Method declared = method(fixture.onInterfaceType(), "run");
		Method implemented = method(fixture.onInterfaceTypeImpl(), "run");
		assertThat(fixture.name(implemented, fixture.onInterfaceTypeImpl())).isEqualTo("interface-type");
		assertThat(fixture.name(declared, fixture.onInterfaceTypeImpl())).isEqualTo("interface-type");
		assertThat(fixture.name(declared, null)).isEqualTo("interface-type");
		assertThat(fixture.source().hasOperations(fixture.onInterfaceTypeImpl())).isTrue();
	}

	@ParameterizedTest
	@MethodSource("typeLevelSources")
	void methodAnnotationOverridesClassAnnotation(Kind kind) {
		Fixture fixture = kind.fixture();
		Class<?> type = fixture.onClass();
		assertThat(fixture.name(method(type, "run"), type)).isEqualTo("class");
		assertThat(fixture.name(method(type, "own"), type)).isEqualTo("method");
		// A class's annotation applies to public methods only, as a proxy's do.
		assertThat(fixture.source().getOperation(method(type, "hidden"), type)).isNull();
	}

	private static Method method(Class<?> type, String name) {
		Method method = ReflectionUtils.findMethod(type, name);
		assertThat(method).isNotNull();
		return method;
	}

	enum Kind {

		LOCK {
			@Override
			Fixture fixture() {
				AnnotationLockOperationSource source = new AnnotationLockOperationSource();
				return new Fixture(source, (operation) -> ((LockOperation) operation).path().template(),
						LockOnInterfaceMethod.class, LockOnInterfaceMethodImpl.class, LockOnInterfaceType.class,
						LockOnInterfaceTypeImpl.class, LockOnClass.class);
			}
		},

		LEADER {
			@Override
			Fixture fixture() {
				Supplier<Leadership> leadership = () -> {
					throw new AssertionError("not asked for when parsing");
				};
				LeaderOnlyOperationSource source = new LeaderOnlyOperationSource(leadership);
				return new Fixture(source, (operation) -> ((LockOperation) operation).path().template(),
						LeaderOnInterfaceMethod.class, LeaderOnInterfaceMethodImpl.class, LeaderOnInterfaceType.class,
						LeaderOnInterfaceTypeImpl.class, LeaderOnClass.class);
			}
		},

		SCHEDULED {
			@Override
			Fixture fixture() {
				return new Fixture(new ScheduledOnceOperationSource(),
						(operation) -> ((ScheduledOnceOperation) operation).job().name(), JobOnInterfaceMethod.class,
						JobOnInterfaceMethodImpl.class, Object.class, Object.class, Object.class);
			}
		};

		abstract Fixture fixture();

	}

	record Fixture(OperationSource<?> source, Function<Object, String> naming, Class<?> onInterfaceMethod,
			Class<?> onInterfaceMethodImpl, Class<?> onInterfaceType, Class<?> onInterfaceTypeImpl, Class<?> onClass) {

		@Nullable String name(Method method, @Nullable Class<?> targetClass) {
			Object operation = this.source.getOperation(method, targetClass);
			return (operation != null) ? this.naming.apply(operation) : null;
		}

	}

	interface LockOnInterfaceMethod {

		@DistributedLock("interface-method")
		void run();

	}

	static class LockOnInterfaceMethodImpl implements LockOnInterfaceMethod {

		@Override
		public void run() {
		}

	}

	@DistributedLock("interface-type")
	interface LockOnInterfaceType {

		void run();

	}

	static class LockOnInterfaceTypeImpl implements LockOnInterfaceType {

		@Override
		public void run() {
		}

	}

	@DistributedLock("class")
	static class LockOnClass {

		public void run() {
		}

		@DistributedLock("method")
		public void own() {
		}

		void hidden() {
		}

	}

	interface LeaderOnInterfaceMethod {

		@LeaderOnly("interface-method")
		void run();

	}

	static class LeaderOnInterfaceMethodImpl implements LeaderOnInterfaceMethod {

		@Override
		public void run() {
		}

	}

	@LeaderOnly("interface-type")
	interface LeaderOnInterfaceType {

		void run();

	}

	static class LeaderOnInterfaceTypeImpl implements LeaderOnInterfaceType {

		@Override
		public void run() {
		}

	}

	@LeaderOnly("class")
	static class LeaderOnClass {

		public void run() {
		}

		@LeaderOnly("method")
		public void own() {
		}

		void hidden() {
		}

	}

	interface JobOnInterfaceMethod {

		@ScheduledOnce("interface-method")
		@Scheduled(fixedRate = 60_000)
		void run();

	}

	static class JobOnInterfaceMethodImpl implements JobOnInterfaceMethod {

		@Override
		public void run() {
		}

	}

}
