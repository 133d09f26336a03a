package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two lock annotations of one kind whose paths can nest ({@code orders} and
 * {@code orders/#{#id}}) are refused when the second is parsed, at startup: the outer
 * lock's queue would hold the inner lock's parent node, which Apache Curator's recipes on
 * the same path take for a lock node. Paths that cannot nest, or that live in different
 * subtrees, are accepted.
 */
class LockPathNestingTests {

	private final AnnotationLockOperationSource source = new AnnotationLockOperationSource();

	@Test
	void aMutexInsideAnotherMutexIsRefusedWhicheverComesFirst() {
		parse(Nesting.class, "all");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "one"))
			.withMessageStartingWith("@DistributedLock(\"orders/#{#id}\") on LockPathNestingTests.Nesting.one(long) "
					+ "has its lock nodes inside the path of @DistributedLock(\"orders\") on "
					+ "LockPathNestingTests.Nesting.all(): lock paths of the same kind must not nest")
			.withMessageEndingWith("give the inner lock a path outside 'orders' (a sibling such as 'orders-...' "
					+ "instead of 'orders/...'; see docs/paths.md)");
		AnnotationLockOperationSource other = new AnnotationLockOperationSource();
		other.getOperation(method(Nesting.class, "one"), Nesting.class);
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> other.getOperation(method(Nesting.class, "all"), Nesting.class))
			.withMessageStartingWith("@DistributedLock(\"orders/#{#id}\") on LockPathNestingTests.Nesting.one(long) "
					+ "has its lock nodes inside the path of @DistributedLock(\"orders\")");
	}

	@Test
	void templatesThatCanNestAreRefused() {
		parse(Nesting.class, "one");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "lines"))
			.withMessageContaining("Nesting.lines(long) has its lock nodes inside the path of "
					+ "@DistributedLock(\"orders/#{#id}\")");
	}

	@Test
	void prefixesAndSuffixesAreTakenIntoAccount() {
		parse(Nesting.class, "one");
		// 'orders/#{#id}' can be 'orders/archive', the parent of 'orders/archive/x'.
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "archive"));
		AnnotationLockOperationSource other = new AnnotationLockOperationSource();
		other.getOperation(method(Nesting.class, "tagged"), Nesting.class);
		// 'orders/order-#{#id}' can never be 'orders/archive'.
		assertThat(other.getOperation(method(Nesting.class, "archive"), Nesting.class)).isNotNull();
		// ...but it can be 'orders/order-7', the parent of 'orders/order-#{#id}-x/lines'.
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> other.getOperation(method(Nesting.class, "taggedLines"), Nesting.class));
	}

	@Test
	void siblingsAndEqualPathsAreAccepted() {
		parse(Nesting.class, "all");
		parse(Nesting.class, "again");
		parse(Nesting.class, "sibling");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "one"));
	}

	@Test
	void readAndWriteLocksShareOneSubtreeAndMutexesAnother() {
		parse(Nesting.class, "write");
		parse(Nesting.class, "all");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "read"))
			.withMessageStartingWith("@ReadLock(\"catalog/#{#sku}\") on LockPathNestingTests.Nesting.read(String) "
					+ "has its lock nodes inside the path of @WriteLock(\"catalog\")");
	}

	@Test
	void semaphoresNestUnlessTheInnerPathCanPassThroughLocksOrLeases() {
		parse(Nesting.class, "reports");
		parse(Nesting.class, "daily");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "leases"))
			.withMessageContaining(" has its nodes in the 'locks' and 'leases' children of the path of "
					+ "@Semaphore(\"reports\") on LockPathNestingTests.Nesting.reports()");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse(Nesting.class, "any"));
	}

	@Test
	void aTemplateThatCanBeAnyPathIsLeftToTheRunTimeCheck() {
		parse(Nesting.class, "anything");
		parse(Nesting.class, "one");
		parse(Nesting.class, "sibling");
		assertThat(this.source.getOperation(method(Nesting.class, "anything"), Nesting.class)).isNotNull();
	}

	private LockOperation parse(Class<?> type, String name) {
		return this.source.getOperation(method(type, name), type);
	}

	private static Method method(Class<?> type, String name) {
		return Arrays.stream(type.getMethods())
			.filter((method) -> method.getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	static class Nesting {

		@DistributedLock("orders")
		public void all() {
		}

		@DistributedLock("orders")
		public void again() {
		}

		@DistributedLock("orders-archive/#{#id}")
		public void sibling(long id) {
		}

		@DistributedLock("orders/#{#id}")
		public void one(long id) {
		}

		@DistributedLock("orders/#{#id}/lines")
		public void lines(long id) {
		}

		@DistributedLock("orders/archive/#{#id}")
		public void archive(long id) {
		}

		@DistributedLock("orders/order-#{#id}")
		public void tagged(long id) {
		}

		@DistributedLock("orders/order-#{#id}-x/lines")
		public void taggedLines(long id) {
		}

		@WriteLock("catalog")
		public void write() {
		}

		@ReadLock("catalog/#{#sku}")
		public String read(String sku) {
			return sku;
		}

		@Semaphore(value = "reports", permits = 2)
		public void reports() {
		}

		@Semaphore(value = "reports/daily", permits = 2)
		public void daily() {
		}

		@Semaphore(value = "reports/leases", permits = 2)
		public void leases() {
		}

		@Semaphore(value = "reports/#{#kind}", permits = 2)
		public void any(String kind) {
		}

		@DistributedLock("#{#path}")
		public void anything(String path) {
		}

	}

}
