package io.github.distlock.interceptor;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.annotation.AliasFor;
import org.springframework.expression.EvaluationContext;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Parsing and validation of {@code @DistributedLock}, without ZooKeeper.
 */
class AnnotationLockOperationSourceTests {

	private final AnnotationLockOperationSource source = new AnnotationLockOperationSource();

	private final LockExpressionEvaluator evaluator = this.source.expressionEvaluator();

	@Test
	void unannotatedMethodHasNoOperationAndTheAnswerIsCached() {
		Method method = method(Valid.class, "plain");
		assertThat(this.source.getOperation(method, Valid.class)).isNull();
		assertThat(this.source.getOperation(method, Valid.class)).isNull();
	}

	@Test
	void operationIsParsedOnceAndCached() {
		Method method = method(Valid.class, "order", long.class);
		LockOperation first = this.source.getOperation(method, Valid.class);
		assertThat(first).isInstanceOf(MutexOperation.class).isSameAs(this.source.getOperation(method, Valid.class));
		assertThat(first.path().template()).isEqualTo("orders/#{#id}/lines");
		assertThat(first.waitTime()).isEqualTo(new DurationTemplate.Fixed(Duration.ofSeconds(2)));
		assertThat(((MutexOperation) first).reentrant()).isTrue();
		assertThat(first.description()).isEqualTo(
				"@DistributedLock(\"orders/#{#id}/lines\") on AnnotationLockOperationSourceTests.Valid.order(long)");
	}

	@Test
	void pathAliasAndMetaAnnotationAreRead() {
		LockOperation aliased = this.source.getOperation(method(Valid.class, "aliased"), Valid.class);
		assertThat(aliased.path().template()).isEqualTo("reports/daily");
		assertThat(aliased.waitTime()).isEqualTo(DurationTemplate.DEFAULT);
		LockOperation composed = this.source.getOperation(method(Valid.class, "composed", String.class), Valid.class);
		assertThat(composed.path().template()).isEqualTo("tenants/#{#tenant}");
		assertThat(composed.waitTime()).isEqualTo(new DurationTemplate.Fixed(Duration.ZERO));
		assertThat(composed.onTimeout()).isEqualTo(TimeoutPolicy.SKIP);
		assertThat(composed.description()).contains("via @TenantLock");
	}

	@Test
	void waitTimeFormsAreParsed() {
		assertThat(waitTime("0")).isEqualTo(new DurationTemplate.Fixed(Duration.ZERO));
		assertThat(waitTime("-1")).isEqualTo(new DurationTemplate.Fixed(Locks.WAIT_FOREVER));
		assertThat(waitTime("500ms")).isEqualTo(new DurationTemplate.Fixed(Duration.ofMillis(500)));
		assertThat(waitTime(" 5s ")).isEqualTo(new DurationTemplate.Fixed(Duration.ofSeconds(5)));
		assertThat(waitTime("PT5S")).isEqualTo(new DurationTemplate.Fixed(Duration.ofSeconds(5)));
		assertThat(waitTime("#{'3s'}")).isInstanceOf(DurationTemplate.Evaluated.class);
		assertThat(waitTime("#{'3'}s")).isInstanceOf(DurationTemplate.Evaluated.class);
	}

	@Test
	void placeholderWaitTimeIsResolvedAtStartupThenValidated() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.addEmbeddedValueResolver(
				(value) -> value.replace("${orders.wait}", "750ms").replace("${orders.bad}", "5 parsecs"));
		this.source.setBeanFactory(beanFactory);
		assertThat(operation(Placeholders.class, "good").waitTime())
			.isEqualTo(new DurationTemplate.Fixed(Duration.ofMillis(750)));
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> operation(Placeholders.class, "bad"))
			.withMessageContaining("Placeholders.bad()")
			.withMessageContaining("${orders.bad}")
			.withMessageContaining("5 parsecs");
	}

	@Test
	void evaluatedWaitTimeAcceptsDurationNumberAndText() {
		EvaluationContext context = this.evaluator.createContext(method(Valid.class, "plain"), new Object[0], null,
				Valid.class, null);
		assertThat(evaluate("#{T(java.time.Duration).ofSeconds(2)}", context)).isEqualTo(Duration.ofSeconds(2));
		assertThat(evaluate("#{250}", context)).isEqualTo(Duration.ofMillis(250));
		assertThat(evaluate("#{-1}", context)).isEqualTo(Locks.WAIT_FOREVER);
		assertThat(evaluate("#{'1'}s", context)).isEqualTo(Duration.ofSeconds(1));
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> evaluate("#{-5}", context))
			.withMessageContaining("negative");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> evaluate("#{null}", context))
			.withMessageContaining("null");
	}

	@Test
	void waitTimeAndHoldAtLeastAreOneTemplateTypeThatOnlyLetsAWaitLastForever() {
		DurationTemplate.Attribute wait = DurationTemplate.Attribute.WAIT_TIME;
		DurationTemplate.Attribute hold = DurationTemplate.Attribute.HOLD_AT_LEAST;
		assertThat(wait.whenEmpty()).isEqualTo(DurationTemplate.DEFAULT);
		assertThat(hold.whenEmpty()).isEqualTo(DurationTemplate.NONE);
		assertThat(wait.parse("-1")).isEqualTo(Locks.WAIT_FOREVER);
		assertThat(wait.fromValue(-1)).isEqualTo(Locks.WAIT_FOREVER);
		assertThat(hold.parse("30s")).isEqualTo(Duration.ofSeconds(30));
		assertThatIllegalArgumentException().isThrownBy(() -> hold.parse("-1")).withMessage("'-1' is negative");
		assertThatIllegalArgumentException().isThrownBy(() -> hold.fromValue(-5)).withMessage("'-5' is negative");
		assertThatIllegalArgumentException().isThrownBy(() -> wait.fromValue(-5))
			.withMessage("'-5' is negative; only -1 (wait forever) may be");
	}

	@Test
	void badWaitTimesAreRejectedNamingMethodAndValue() {
		assertRejected("badDuration", "Invalid.badDuration()", "waitTime '5 parsecs'", "'500ms'");
		assertRejected("negativeDuration", "Invalid.negativeDuration()", "'-5s'", "negative");
		assertRejected("hugeDuration", "Invalid.hugeDuration()", "9999999999999999999s");
		assertRejected("tooLongDuration", "Invalid.tooLongDuration()", "too long");
		assertRejected("badWaitExpression", "Invalid.badWaitExpression()", "#{#x");
	}

	@Test
	void badTemplatesAreRejectedNamingMethodAndTemplate() {
		assertRejected("unclosed", "Invalid.unclosed(long)", "'orders/#{#id'", "not a valid template");
		assertRejected("leadingSlash", "Invalid.leadingSlash()", "'/orders'", "cannot start with '/'");
		assertRejected("doubleSlash", "Invalid.doubleSlash(long)", "'orders//#{#id}'", "empty segment");
		assertRejected("dotDot", "Invalid.dotDot(long)", "'orders/../#{#id}'", "'..'");
		assertRejected("dot", "Invalid.dot()", "'./orders'", "'.'");
		assertRejected("controlCharacter", "Invalid.controlCharacter()", "U+0001");
		assertRejected("twoPartsInOneSegment", "Invalid.twoPartsInOneSegment(String, String)", "'pairs/#{#a}-#{#b}'",
				"two #{...} parts in one segment");
		assertRejected("emptyPath", "Invalid.emptyPath()", "no lock path");
	}

	@Test
	void fallbackProblemsAreRejectedNamingMethodAndFallback() {
		assertRejected("missingFallback", "Invalid.missingFallback(long)", "'nowhere' not found");
		assertRejected("wrongParameters", "Invalid.wrongParameters(long)", "wrong parameters",
				"Invalid.wrongParametersFallback(String)");
		assertRejected("wrongReturn", "Invalid.wrongReturn(long)", "returns java.lang.Integer", "java.lang.String");
		assertRejected("skipAndFallback", "Invalid.skipAndFallback(long)", "SKIP", "keep only one");
	}

	@Test
	void plainFuturesAndUninterceptableMethodsAreRejected() {
		assertRejected("future", "Invalid.future()", "returns java.util.concurrent.Future",
				"whose end cannot be observed without blocking a thread",
				"return a CompletableFuture or CompletionStage");
		assertRejected("ownStage", "Invalid.ownStage()", "AnnotationLockOperationSourceTests$OwnStage",
				"declare the return type as CompletableFuture or CompletionStage");
		assertRejected("privateMethod", "Invalid.privateMethod()", "private");
	}

	@Test
	void stagesAndPublishersAreLockedUntilTheirWorkEndsAsTheParsedOperationSays() {
		assertThat(operation(Async.class, "completable").returnType()).isEqualTo(new LockedReturnType.Stage(false));
		assertThat(operation(Async.class, "stage").returnType()).isEqualTo(new LockedReturnType.Stage(true));
		assertThat(operation(Async.class, "publisher").returnType())
			.isInstanceOfSatisfying(LockedReturnType.Reactive.class, (reactive) -> {
				assertThat(reactive.singleValue()).isFalse();
				assertThat(reactive.suspending()).isFalse();
			});
		assertThat(operation(Async.class, "mono").returnType()).isInstanceOfSatisfying(LockedReturnType.Reactive.class,
				(reactive) -> assertThat(reactive.singleValue()).isTrue());
		assertThat(operation(Valid.class, "order", long.class).returnType()).isEqualTo(LockedReturnType.SYNCHRONOUS);
		assertThat(this.source.hasOperations(Async.class)).isTrue();
	}

	@Test
	void twoLockAnnotationsOnOneMethodAreRejected() {
		assertRejected("twoLocks", "Invalid.twoLocks()", "2 lock annotations");
	}

	@Test
	void classScanFailsOnAnyBadMethodNotOnlyTheFirst() {
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> this.source.hasOperations(Invalid.class));
		assertThat(this.source.hasOperations(Valid.class)).isTrue();
		assertThat(this.source.hasOperations(String.class)).isFalse();
	}

	@Test
	void fallbackWithExceptionParameterIsPreferredAndAcceptsSupertypes() {
		TimeoutPolicy.Fallback fallback = (TimeoutPolicy.Fallback) operation(Valid.class, "withFallback", long.class)
			.onTimeout();
		assertThat(fallback.passesException()).isTrue();
		assertThat(fallback.method().getParameterTypes()).containsExactly(long.class, RuntimeException.class);
	}

	@Test
	void differentArgumentsNeverGiveTheSamePath() {
		LockOperation operation = operation(Valid.class, "composed", String.class);
		Random random = new Random(42);
		String alphabet = "aZ09-._~%/ .\u0000\u00e9\u20ac\uD83D\uDE00:+*";
		Map<LockPath, String> seen = new HashMap<>();
		List<String> fixed = List.of(".", "..", "%", "%25", "%2F", "/", "a/b", "a%2Fb", "...", "%2E", "%2E%2E");
		for (int i = 0; i < 20_000; i++) {
			String value;
			if (i < fixed.size()) {
				value = fixed.get(i);
			}
			else {
				StringBuilder builder = new StringBuilder();
				int length = 1 + random.nextInt(8);
				while (builder.length() < length) {
					int index = random.nextInt(alphabet.length());
					char c = alphabet.charAt(index);
					if (Character.isHighSurrogate(c)) {
						builder.append(c).append(alphabet.charAt(index + 1));
					}
					else if (!Character.isLowSurrogate(c)) {
						builder.append(c);
					}
				}
				value = builder.toString();
			}
			List<LockPath> paths = resolve(operation, value);
			assertThat(paths).hasSize(1);
			LockPath path = paths.get(0);
			assertThat(path.segments()).hasSize(2).first().isEqualTo("tenants");
			String previous = seen.putIfAbsent(path, value);
			assertThat(previous).as("path %s of %s", path, value).isIn(null, value);
		}
	}

	@Test
	void collectionValuedPartGivesSortedDistinctPaths() {
		LockOperation operation = operation(Valid.class, "many", List.class);
		EvaluationContext context = this.evaluator.createContext(operation.method(),
				new Object[] { List.of("b", "a/x", "b") }, null, Valid.class, null);
		assertThat(operation.path().resolve(() -> context, operation.description())).extracting(LockPath::value)
			.containsExactly("accounts/a%2Fx", "accounts/b");
		EvaluationContext empty = this.evaluator.createContext(operation.method(), new Object[] { List.of() }, null,
				Valid.class, null);
		assertThatExceptionOfType(InvalidLockPathException.class)
			.isThrownBy(() -> operation.path().resolve(() -> empty, operation.description()))
			.withMessageContaining("empty collection");
	}

	private List<LockPath> resolve(LockOperation operation, Object... args) {
		EvaluationContext context = this.evaluator.createContext(operation.method(), args, null, Valid.class, null);
		List<LockPath> evaluated = operation.path().resolve(() -> context, operation.description());
		// Reading plain parameter references directly must give exactly what evaluating
		// them gives.
		assertThat(operation.path().resolve(() -> context, args, operation.description()))
			.containsExactlyElementsOf(evaluated);
		return evaluated;
	}

	@Test
	void plainParameterReferencesAreReadWithoutAnEvaluationContext() {
		Supplier<EvaluationContext> none = () -> {
			throw new AssertionError("no evaluation context should be needed");
		};
		LockOperation byName = operation(Valid.class, "order", long.class);
		assertThat(byName.path().resolve(none, new Object[] { 42L }, byName.description())).extracting(LockPath::value)
			.containsExactly("orders/42/lines");
		LockOperation byPosition = operation(References.class, "positional", String.class, String.class);
		assertThat(byPosition.path().resolve(none, new Object[] { "a/b", "c" }, byPosition.description()))
			.extracting(LockPath::value)
			.containsExactly("x/c/a%2Fb");
		LockOperation collection = operation(Valid.class, "many", List.class);
		assertThat(collection.path().resolve(none, new Object[] { List.of("b", "a") }, collection.description()))
			.extracting(LockPath::value)
			.containsExactly("accounts/a", "accounts/b");
	}

	@Test
	void referencesThatCouldMeanAnotherParameterOrTheRootAreEvaluated() {
		// #p1 names the first parameter and is also the second parameter's position;
		// #root is the root object, not the parameter called root.
		LockOperation ambiguous = operation(References.class, "ambiguous", String.class, String.class);
		LockOperation root = operation(References.class, "root", String.class);
		for (LockOperation operation : List.of(ambiguous, root)) {
			Object[] args = (operation == root) ? new Object[] { "r" } : new Object[] { "first", "second" };
			EvaluationContext context = this.evaluator.createContext(operation.method(), args, new References(),
					References.class, null);
			AtomicInteger contexts = new AtomicInteger();
			List<LockPath> paths = operation.path().resolve(() -> {
				contexts.incrementAndGet();
				return context;
			}, args, operation.description());
			assertThat(contexts).as(operation.description()).hasValue(1);
			assertThat(paths)
				.containsExactlyElementsOf(operation.path().resolve(() -> context, operation.description()))
				.extracting(LockPath::value)
				.doesNotContain("x/r", "x/first");
		}
	}

	private Duration evaluate(String waitTime, EvaluationContext context) {
		DurationTemplate parsed = waitTime(waitTime);
		assertThat(parsed).isInstanceOf(DurationTemplate.Evaluated.class);
		return parsed.resolve(() -> context, Duration.ofSeconds(9), "test");
	}

	private DurationTemplate waitTime(String text) {
		// The annotation says ${wait}; the resolver stands for the environment.
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.addEmbeddedValueResolver((value) -> value.replace("${wait}", text));
		AnnotationLockOperationSource fresh = new AnnotationLockOperationSource();
		fresh.setBeanFactory(beanFactory);
		return fresh.getOperation(method(DynamicWait.class, "locked"), DynamicWait.class).waitTime();
	}

	@Test
	void readWriteAndSemaphoreAnnotationsBecomeTheirOperations() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.addEmbeddedValueResolver((value) -> value.replace("${exports.permits}", "4"));
		this.source.setBeanFactory(beanFactory);
		LockOperation read = operation(OtherKinds.class, "read", String.class);
		assertThat(read)
			.isEqualTo(new ReadWriteOperation(read.method(), read.description(), LockedReturnType.SYNCHRONOUS,
					read.path(), new DurationTemplate.Fixed(Duration.ofSeconds(1)), TimeoutPolicy.SKIP, false, false));
		assertThat(read.description())
			.isEqualTo("@ReadLock(\"docs/#{#id}\") on AnnotationLockOperationSourceTests.OtherKinds.read(String)");
		LockOperation write = operation(OtherKinds.class, "write", List.class);
		assertThat(write).isInstanceOfSatisfying(ReadWriteOperation.class,
				(operation) -> assertThat(operation.write()).isTrue());
		assertThat(write.supportsMultiLock()).isTrue();
		assertThat(operation(OtherKinds.class, "fixed")).isInstanceOfSatisfying(SemaphoreOperation.class,
				(operation) -> assertThat(operation.permits()).isEqualTo(3));
		LockOperation placeholder = operation(OtherKinds.class, "placeholder");
		assertThat(placeholder).isInstanceOfSatisfying(SemaphoreOperation.class,
				(operation) -> assertThat(operation.permits()).isEqualTo(4));
		assertThat(placeholder.supportsMultiLock()).isFalse();
		assertThat(this.source.hasOperations(OnlySemaphore.class)).isTrue();
	}

	static class OtherKinds {

		@ReadLock(value = "docs/#{#id}", waitTime = "1s", onTimeout = OnTimeout.SKIP)
		public void read(String id) {
		}

		@WriteLock("docs/#{#ids}")
		public void write(List<String> ids) {
		}

		@Semaphore(value = "exports", permits = 3)
		public void fixed() {
		}

		@Semaphore(value = "exports", permitsString = " ${exports.permits} ")
		public void placeholder() {
		}

	}

	static class OnlySemaphore {

		@Semaphore(value = "only", permits = 1)
		public void run() {
		}

	}

	private LockOperation operation(Class<?> type, String name, Class<?>... parameterTypes) {
		return this.source.getOperation(method(type, name, parameterTypes), type);
	}

	private void assertRejected(String name, String... fragments) {
		Method method = ReflectionUtils.findMethod(Invalid.class, name, (Class<?>[]) null);
		assertThat(method).as(name).isNotNull();
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> this.source.getOperation(method, Invalid.class))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(fragments));
	}

	private static Method method(Class<?> type, String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
		assertThat(method).as(name).isNotNull();
		return method;
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(waitTime = "0", onTimeout = OnTimeout.SKIP)
	@interface TenantLock {

		@AliasFor(annotation = DistributedLock.class, attribute = "value")
		String value();

	}

	static class Valid {

		public void plain() {
		}

		@DistributedLock(value = "orders/#{#id}/lines", waitTime = "2s")
		public void order(long id) {
		}

		@DistributedLock(path = "reports/daily")
		public void aliased() {
		}

		@TenantLock("tenants/#{#tenant}")
		public void composed(String tenant) {
		}

		@DistributedLock("accounts/#{#ids}")
		public void many(List<String> ids) {
		}

		@DistributedLock(value = "invoices/#{#id}", fallback = "fallback")
		public String withFallback(long id) {
			return "";
		}

		String fallback(long id) {
			return "plain";
		}

		String fallback(long id, RuntimeException ex) {
			return "with exception";
		}

	}

	static class References {

		@DistributedLock("x/#{#a1}/#{#p0}")
		public void positional(String first, String second) {
		}

		@DistributedLock("x/#{#p1}")
		public void ambiguous(String p1, String other) {
		}

		@DistributedLock("x/#{#root}")
		public void root(String root) {
		}

	}

	static class Placeholders {

		@DistributedLock(value = "x", waitTime = "${orders.wait}")
		public void good() {
		}

		@DistributedLock(value = "x", waitTime = "${orders.bad}")
		public void bad() {
		}

	}

	static class DynamicWait {

		@DistributedLock(value = "x", waitTime = "${wait}")
		public void locked() {
		}

	}

	static class OwnStage extends CompletableFuture<String> {

	}

	static class Async {

		@DistributedLock("x")
		public CompletableFuture<String> completable() {
			return CompletableFuture.completedFuture("");
		}

		@DistributedLock("x")
		public CompletionStage<Optional<String>> stage() {
			return CompletableFuture.completedFuture(Optional.empty());
		}

		@DistributedLock("x")
		public Flow.Publisher<String> publisher() {
			return (subscriber) -> {
			};
		}

		@DistributedLock("x")
		public Mono<String> mono() {
			return Mono.empty();
		}

	}

	static class Invalid {

		@DistributedLock(value = "x", waitTime = "5 parsecs")
		public void badDuration() {
		}

		@DistributedLock(value = "x", waitTime = "-5s")
		public void negativeDuration() {
		}

		@DistributedLock(value = "x", waitTime = "9999999999999999999s")
		public void hugeDuration() {
		}

		@DistributedLock(value = "x", waitTime = "PT2562047H48M")
		public void tooLongDuration() {
		}

		@DistributedLock(value = "x", waitTime = "#{#x")
		public void badWaitExpression() {
		}

		@DistributedLock("orders/#{#id")
		public void unclosed(long id) {
		}

		@DistributedLock("/orders")
		public void leadingSlash() {
		}

		@DistributedLock("orders//#{#id}")
		public void doubleSlash(long id) {
		}

		@DistributedLock("orders/../#{#id}")
		public void dotDot(long id) {
		}

		@DistributedLock("./orders")
		public void dot() {
		}

		@DistributedLock("orders/\u0001")
		public void controlCharacter() {
		}

		@DistributedLock("pairs/#{#a}-#{#b}")
		public void twoPartsInOneSegment(String a, String b) {
		}

		@DistributedLock
		public void emptyPath() {
		}

		@DistributedLock(value = "x", fallback = "nowhere")
		public String missingFallback(long id) {
			return "";
		}

		@DistributedLock(value = "x", fallback = "wrongParametersFallback")
		public String wrongParameters(long id) {
			return "";
		}

		String wrongParametersFallback(String id) {
			return "";
		}

		@DistributedLock(value = "x", fallback = "wrongReturnFallback")
		public String wrongReturn(long id) {
			return "";
		}

		Integer wrongReturnFallback(long id) {
			return 1;
		}

		@DistributedLock(value = "x", onTimeout = OnTimeout.SKIP, fallback = "skipFallback")
		public String skipAndFallback(long id) {
			return "";
		}

		String skipFallback(long id) {
			return "";
		}

		@DistributedLock("x")
		public Future<String> future() {
			return CompletableFuture.completedFuture("");
		}

		@DistributedLock("x")
		public OwnStage ownStage() {
			return new OwnStage();
		}

		@DistributedLock("x")
		private void privateMethod() {
		}

		@DistributedLock("x")
		@TenantLock("y")
		public void twoLocks() {
		}

	}

}
