package io.github.distlock.faults;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.apache.curator.framework.CuratorFramework;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.interceptor.AnnotationLockOperationSource;
import io.github.distlock.interceptor.LockInterceptor;
import io.github.distlock.interceptor.OperationSourceAdvisor;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Catalogue of bad inputs: each row gives the input, the kind of error and the words that
 * tell the user what to fix. Annotation problems are found when the annotation is parsed
 * (at startup); argument values when the locked method is called; API misuse when the API
 * is called.
 */
class BadInputCatalogueTests {

	/** No namespace: the lock root is ZooKeeper's root, next to /zookeeper. */
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = ZooKeeperExtension
		.forFaults(Faults.NODES.withNamespace(null).withApplicationName("catalogue"));

	private static CuratorFramework rootClient;

	private static CuratorLocks locks;

	private static Orders orders;

	private static Shipping shipping;

	@BeforeAll
	static void start() throws Exception {
		locks = zookeeper.newNode();
		rootClient = locks.client();
		orders = proxy(new Orders(), false);
		// A lambda's method has no parameter names, as a class compiled without the
		// -parameters flag.
		Shipping lambda = (order) -> "shipped " + order;
		shipping = proxy(lambda, true);
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(T target, boolean jdk) {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource();
		OperationSourceAdvisor advisor = new OperationSourceAdvisor(source, new LockInterceptor(source, () -> locks));
		ProxyFactory factory = new ProxyFactory(target);
		factory.setProxyTargetClass(!jdk);
		factory.addAdvisor(advisor);
		return (T) factory.getProxy();
	}

	/** Parse the annotation of a method of {@link Bad}, as the proxy set-up does. */
	private static ThrowingCallable annotation(String methodName) {
		Method method = ReflectionUtils.findMethod(Bad.class, methodName, (Class<?>[]) null);
		assertThat(method).as(methodName).isNotNull();
		return () -> new AnnotationLockOperationSource().getOperation(method, Bad.class);
	}

	static Stream<Arguments> catalogue() {
		Class<? extends DistributedLockException> config = LockConfigurationException.class;
		Class<? extends DistributedLockException> path = InvalidLockPathException.class;
		return Stream.of(
				// Keys written in the annotation
				arguments("empty path", annotation("emptyPath"), config,
						List.of("emptyPath()", "no lock path", "give one such as")),
				arguments("'/' as the path", annotation("slash"), config,
						List.of("slash()", "cannot start with '/'", "write a relative path")),
				arguments("leading '/'", annotation("leadingSlash"), config,
						List.of("'/orders'", "cannot start with '/'", "write a relative path")),
				arguments("'.' segment", annotation("dot"), config,
						List.of("'.' and '..' cannot be segments", "no empty, '.' or '..' segment")),
				arguments("'..' segment", annotation("dotDot"), config,
						List.of("'orders/../#{#id}'", "'.' and '..' cannot be segments")),
				arguments("control character", annotation("controlCharacter"), config,
						List.of("U+0001", "not allowed in a ZooKeeper path", "no control characters")),
				arguments("lone surrogate", annotation("loneSurrogate"), config,
						List.of("U+D800", "not allowed in a ZooKeeper path")),
				arguments("two #{} parts in one segment", annotation("twoPartsInOneSegment"), config,
						List.of("two #{...} parts in one segment", "separate them with '/'")),
				// Wait times
				arguments("'5 parsecs'", annotation("parsecs"), config,
						List.of("waitTime '5 parsecs' is not a wait time", "a duration such as '500ms'")),
				arguments("negative wait", annotation("negativeWait"), config,
						List.of("'-5s' is negative", "only -1 (wait forever) may be")),
				arguments("overflowing wait (too large to parse)", annotation("overflowingWait"), config,
						List.of("is not a duration (or it is too large)", "'-1' to wait forever")),
				arguments("overflowing wait (beyond nanoseconds)", annotation("hugeWait"), config,
						List.of("'PT2562047H48M' is too long", "use -1 to wait forever")),
				// Hold times
				arguments("negative holdAtLeast", annotation("negativeHold"), config,
						List.of("negativeHold()", "holdAtLeast '-5s' is not a duration to hold the lock",
								"'-5s' is negative", "a duration such as '30s'")),
				arguments("holdAtLeast of -1", annotation("minusOneHold"), config,
						List.of("holdAtLeast '-1'", "'-1' is negative")),
				arguments("holdAtLeast not a duration", annotation("parsecsHold"), config,
						List.of("holdAtLeast '5 parsecs'", "is not a duration")),
				// The method
				arguments("two lock annotations", annotation("twoLocks"), config,
						List.of("twoLocks()", "carries 2 lock annotations", "remove all but one")),
				arguments("private method", annotation("privateMethod"), config,
						List.of("privateMethod()", "is private", "make it a public (or protected) instance method")),
				arguments("final method", annotation("finalMethod"), config,
						List.of("finalMethod()", "is final", "remove 'final' from the method")),
				// Argument values, at the call
				arguments("null key", (ThrowingCallable) () -> orders.ship(null), path,
						List.of("Orders.ship(String)", "'orders/#{#id}'", "#{#id}", "the value is null")),
				arguments("empty key", (ThrowingCallable) () -> orders.ship(""), path,
						List.of("Orders.ship(String)", "#{#id}", "cannot be empty")),
				arguments("lone surrogate in a key", (ThrowingCallable) () -> orders.ship("a\uDC00"), path,
						List.of("#{#id}", "must be valid Unicode", "unpaired surrogate at index 1")),
				arguments("over-long key", (ThrowingCallable) () -> orders.ship("k".repeat(300)), path,
						List.of("#{#id}", "at most 255 characters once escaped", "300 characters")),
				arguments("empty collection of keys", (ThrowingCallable) () -> orders.shipAll(List.of()), path,
						List.of("#{#ids}", "empty collection", "nothing to lock")),
				// In an application context this fails at startup, when the bean
				// is proxied.
				arguments("missing parameter name", (ThrowingCallable) () -> shipping.ship("42"), config,
						List.of("ship(", "'parcels/#{#order}'", "refers to #order by name",
								"compiled without parameter names", "'javac -parameters'", "#p0")),
				// The programmatic API
				arguments("null literal path", (ThrowingCallable) () -> LockPath.parse(null), path,
						List.of("it is empty")),
				arguments("'..' literal path", (ThrowingCallable) () -> locks.mutex(".."), path,
						List.of("Invalid lock path '..'", "'.' and '..' cannot be segments")),
				arguments("over-long literal path", (ThrowingCallable) () -> LockPath.parse("p".repeat(1100)), path,
						List.of("1100 characters long", "at most 1024 are allowed")),
				arguments("null segment", (ThrowingCallable) () -> LockPath.escapeSegment(null), path,
						List.of("cannot be null")),
				arguments("semaphore with 0 permits", (ThrowingCallable) () -> locks.semaphore("reports", 0), config,
						List.of("'reports'", "needs at least 1 permit", "0 were given")),
				arguments("semaphore with -1 permits", (ThrowingCallable) () -> locks.semaphore("reports", -1), config,
						List.of("'reports'", "needs at least 1 permit", "-1 were given")));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("catalogue")
	void badInputIsRejectedSayingWhatToFix(String input, ThrowingCallable call,
			Class<? extends DistributedLockException> kind, List<String> words) {
		assertThatExceptionOfType(kind).isThrownBy(call).satisfies((ex) -> {
			for (String word : words) {
				assertThat(ex.getMessage()).as("message of %s", input).contains(word);
			}
		});
	}

	@Test
	void catalogueHasAtLeastTwentyRows() {
		assertThat(catalogue()).hasSizeGreaterThanOrEqualTo(20);
	}

	@Test
	void hostileKeysStayOneSegmentUnderTheLockRootAndNeverReachSlashZookeeper() throws Exception {
		List<String> before = rootClient.getChildren().forPath("/zookeeper");
		try (LockHandle literal = locks.mutex("zookeeper").acquire(Duration.ofSeconds(5))) {
			assertThat(rootClient.getChildren().forPath("/mutex/zookeeper")).hasSize(1);
		}
		for (String hostile : List.of("zookeeper", "/zookeeper", "../zookeeper", "..", ".", "a/b", "tab\there")) {
			String node = orders.ship(hostile);
			assertThat(node).startsWith("/mutex/orders/");
			assertThat(node.substring("/mutex/orders/".length())).doesNotContain("/")
				.isEqualTo(LockPath.escapeSegment(hostile));
		}
		assertThat(rootClient.getChildren().forPath("/zookeeper")).isEqualTo(before);
	}

	/** Locked methods called through a proxy with bad arguments. */
	static class Orders {

		/** Returns the ZooKeeper path of the lock it holds. */
		@DistributedLock("orders/#{#id}")
		public String ship(String id) throws Exception {
			String parent = "/mutex/orders/" + LockPath.escapeSegment(id);
			assertThat(rootClient.getChildren().forPath(parent)).hasSize(1);
			return parent;
		}

		@DistributedLock("orders/#{#ids}")
		public void shipAll(List<String> ids) {
		}

	}

	/** Implemented by a lambda, whose method has no parameter names. */
	interface Shipping {

		@DistributedLock("parcels/#{#order}")
		String ship(String order);

	}

	/** Annotations that cannot work. */
	static class Bad {

		@DistributedLock("")
		public void emptyPath() {
		}

		@DistributedLock("/")
		public void slash() {
		}

		@DistributedLock("/orders")
		public void leadingSlash() {
		}

		@DistributedLock("orders/./#{#id}")
		public void dot(long id) {
		}

		@DistributedLock("orders/../#{#id}")
		public void dotDot(long id) {
		}

		@DistributedLock("orders\001/#{#id}")
		public void controlCharacter(long id) {
		}

		@DistributedLock("orders\uD800")
		public void loneSurrogate() {
		}

		@DistributedLock("orders/#{#a}#{#b}")
		public void twoPartsInOneSegment(String a, String b) {
		}

		@DistributedLock(value = "x", waitTime = "5 parsecs")
		public void parsecs() {
		}

		@DistributedLock(value = "x", waitTime = "-5s")
		public void negativeWait() {
		}

		@DistributedLock(value = "x", waitTime = "9999999999999999999s")
		public void overflowingWait() {
		}

		@DistributedLock(value = "x", waitTime = "PT2562047H48M")
		public void hugeWait() {
		}

		@DistributedLock(value = "x", holdAtLeast = "-5s")
		public void negativeHold() {
		}

		@DistributedLock(value = "x", holdAtLeast = "-1")
		public void minusOneHold() {
		}

		@DistributedLock(value = "x", holdAtLeast = "5 parsecs")
		public void parsecsHold() {
		}

		@DistributedLock("x")
		@OtherLock
		public void twoLocks() {
		}

		@DistributedLock("x")
		private void privateMethod() {
		}

		@DistributedLock("x")
		public final void finalMethod() {
		}

	}

	@java.lang.annotation.Target(java.lang.annotation.ElementType.METHOD)
	@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
	@DistributedLock("y")
	@interface OtherLock {

	}

}
