package io.github.distlock.transaction;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.r2dbc.connection.ConnectionFactoryUtils;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.AnnotationTransactionAttributeSource;
import org.springframework.transaction.interceptor.DefaultTransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttributeSource;
import org.springframework.transaction.reactive.TransactionCallback;
import org.springframework.transaction.reactive.TransactionContextManager;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.spi.FenceStore;
import io.github.distlock.interceptor.ReactiveTransactionFencing;

/**
 * Fences reactive transactions on an R2DBC {@link ConnectionFactory}: the work of a
 * fenced call runs, once its locks are held, in a reactive transaction of the
 * application's {@link ReactiveTransactionManager} (an {@code R2dbcTransactionManager})
 * with the method's {@code @Transactional} attributes; the method's own
 * {@code @Transactional} takes part in it, so the lock wraps the transaction. A reactive
 * {@link TransactionSynchronization} advances, just before the transaction commits, the
 * fence row of each of the call's locks ({@link FenceTable}) on the transaction's own
 * connection (bound to it as {@link ConnectionFactoryUtils} finds it), and the commit
 * fails with a {@link io.github.distlock.core.StaleFencingTokenException} and rolls back
 * when a newer holder committed first.
 * <p>
 * A transaction that is already running in the pipeline when the call enters is fenced
 * instead (the call takes part in it), as with JDBC. One synchronization per transaction
 * holds its fences; a lock entered twice fences once, with the token of its first hold.
 * <p>
 * As a {@link FenceStore}, it advances a lock's row past a holder removed by
 * {@code LockAdmin#forceRelease}, in a transaction of its own.
 */
public final class R2dbcTransactionFencing implements ReactiveTransactionFencing, FenceStore {

	private final Supplier<@Nullable ConnectionFactory> connectionFactory;

	private final Supplier<@Nullable ReactiveTransactionManager> transactionManager;

	private final FenceTable table;

	private final TransactionAttributeSource attributes = new AnnotationTransactionAttributeSource(false);

	private volatile @Nullable R2dbcFenceTable statements;

	/**
	 * Create the fencing.
	 * @param connectionFactory the connection factory the fenced transactions run on,
	 * asked for when first needed; {@code null} if the application has none (a fenced
	 * reactive method is then refused at startup); an {@code R2dbcTransactionManager}'s
	 * own is used before it
	 * @param transactionManager the reactive transaction manager, asked for when first
	 * needed
	 * @param table the fence table
	 */
	public R2dbcTransactionFencing(Supplier<@Nullable ConnectionFactory> connectionFactory,
			Supplier<@Nullable ReactiveTransactionManager> transactionManager, FenceTable table) {
		this.connectionFactory = connectionFactory;
		this.transactionManager = transactionManager;
		this.table = table;
	}

	/** The fence table. */
	public FenceTable table() {
		return this.table;
	}

	/**
	 * Advance the row of a lock past a removed holder's token, in a transaction of its
	 * own on the connection factory, waiting up to 30 seconds: that holder's fenced
	 * commits are refused from then on. Without a connection factory there is nothing to
	 * fence.
	 */
	@Override
	public void advancePast(LockProtocol protocol, LockPath path, long fencingToken) {
		ConnectionFactory connectionFactory = connectionFactory();
		if (connectionFactory == null) {
			return;
		}
		R2dbcFenceTable statements = statements(connectionFactory);
		String key = FenceTable.key(protocol, path);
		Mono.usingWhen(Mono.from(connectionFactory.create()),
				(connection) -> Mono.from(connection.beginTransaction())
					.then(statements.advancePast(connection, key, fencingToken, 1))
					.then(Mono.from(connection.commitTransaction()))
					.onErrorResume((ex) -> Mono.from(connection.rollbackTransaction()).then(Mono.error(ex))),
				Connection::close)
			.block(Duration.ofSeconds(30));
	}

	@Override
	public String toString() {
		return "R2DBC fence table " + this.table.name();
	}

	@Override
	public void checkUsable(String description) {
		List<String> missing = new ArrayList<>();
		if (this.transactionManager.get() == null) {
			missing.add("single (or primary) ReactiveTransactionManager");
		}
		else if (connectionFactory() == null) {
			missing.add("single (or primary) R2DBC ConnectionFactory");
		}
		if (!missing.isEmpty()) {
			throw new LockConfigurationException(description + ": fenced = true on a reactive method, but the "
					+ "application has no " + String.join(" and no ", missing) + ", so its reactive transactions "
					+ "cannot be fenced; add spring-boot-starter-r2dbc (or -data-r2dbc) with a database, or remove "
					+ "fenced = true (see docs/failure-model.md#fenced-transactions)");
		}
	}

	@Override
	public Publisher<?> fence(String description, Handle handle, Method method, Class<?> targetClass,
			Publisher<?> work) {
		TransactionAttribute attribute = this.attributes.getTransactionAttribute(method, targetClass);
		return execute(description, handle, (attribute != null) ? attribute : new DefaultTransactionAttribute(),
				(status) -> work);
	}

	/**
	 * Run a callback in a reactive transaction (or the pipeline's running one) fenced by
	 * a handle.
	 * @param description who asks, for messages
	 * @param handle the held lock or locks
	 * @param definition the transaction's propagation, isolation, timeout; a
	 * {@link TransactionAttribute}'s rollback rules are followed
	 * @param action the transaction's work
	 * @return the work's elements; a
	 * {@link io.github.distlock.core.StaleFencingTokenException} if a newer holder of one
	 * of the locks committed first (the transaction was rolled back)
	 */
	<T> Flux<T> execute(String description, Handle handle, TransactionDefinition definition,
			TransactionCallback<T> action) {
		return Flux.defer(() -> {
			ReactiveTransactionManager manager = this.transactionManager.get();
			if (manager == null) {
				return Flux.error(new LockConfigurationException(
						description + ": fenced = true, but the application has no ReactiveTransactionManager"));
			}
			return Flux.usingWhen(manager.getReactiveTransaction(definition),
					(status) -> fence(description, handle).thenMany(action.doInTransaction(status)), manager::commit,
					(status, ex) -> rollbackOn(definition, ex) ? manager.rollback(status) : manager.commit(status),
					manager::rollback);
		})
			.onErrorMap(R2dbcTransactionFencing::unwrapCleanupFailure)
			.contextWrite(TransactionContextManager.getOrCreateContext())
			.contextWrite(TransactionContextManager.getOrCreateContextHolder());
	}

	private static boolean rollbackOn(TransactionDefinition definition, Throwable ex) {
		return !(definition instanceof TransactionAttribute attribute) || attribute.rollbackOn(ex);
	}

	/**
	 * Reactor wraps a failed commit in "Async resource cleanup failed after onComplete":
	 * the caller gets the commit's own exception, as from Spring's
	 * {@code TransactionalOperator}.
	 */
	private static Throwable unwrapCleanupFailure(Throwable ex) {
		String message = ex.getMessage();
		if (ex.getCause() != null && message != null && message.startsWith("Async resource cleanup failed")) {
			return ex.getCause();
		}
		return ex;
	}

	/** Add the call's locks to the fences of the pipeline's current transaction. */
	private Mono<Void> fence(String description, Handle handle) {
		return TransactionSynchronizationManager.forCurrentTransaction().flatMap((synchronizations) -> {
			if (!synchronizations.isSynchronizationActive() || !synchronizations.isActualTransactionActive()) {
				return Mono.error(new LockConfigurationException(description + ": fenced = true, but the call runs "
						+ "without a transaction (its propagation does not start one), so its writes cannot be "
						+ "fenced; use a propagation that runs a transaction (REQUIRED, the default)"));
			}
			Fences fences = null;
			for (TransactionSynchronization synchronization : synchronizations.getSynchronizations()) {
				if (synchronization instanceof Fences existing && existing.owner == this) {
					fences = existing;
				}
			}
			if (fences == null) {
				fences = new Fences(this);
				synchronizations.registerSynchronization(fences);
			}
			fences.add(description, handle);
			return Mono.empty();
		});
	}

	private @Nullable ConnectionFactory connectionFactory() {
		ReactiveTransactionManager manager = this.transactionManager.get();
		if (manager instanceof R2dbcTransactionManager r2dbc && r2dbc.getConnectionFactory() != null) {
			return r2dbc.getConnectionFactory();
		}
		return this.connectionFactory.get();
	}

	private R2dbcFenceTable statements(ConnectionFactory connectionFactory) {
		R2dbcFenceTable statements = this.statements;
		if (statements == null) {
			statements = new R2dbcFenceTable(this.table, connectionFactory);
			this.statements = statements;
		}
		return statements;
	}

	/** Advance the fences of a committing transaction, in path order. */
	private Mono<Void> advance(Map<String, Fence> fences) {
		ConnectionFactory connectionFactory = connectionFactory();
		return TransactionSynchronizationManager.forCurrentTransaction().flatMap((synchronizations) -> {
			if (connectionFactory == null || !synchronizations.hasResource(connectionFactory)) {
				return Mono.error(new LockConfigurationException("A fenced reactive transaction cannot commit its "
						+ "fence: it does not run on the application's ConnectionFactory (" + connectionFactory
						+ "), so the fence row would not commit with its writes; run it with an "
						+ "R2dbcTransactionManager of that ConnectionFactory"));
			}
			R2dbcFenceTable statements = statements(connectionFactory);
			// One order for every transaction, so that two fencing the same locks do not
			// wait for each other's rows in opposite orders.
			List<Fence> ordered = new ArrayList<>(fences.values());
			ordered.sort(Comparator.comparing(Fence::key));
			return ConnectionFactoryUtils.getConnection(connectionFactory)
				.flatMap((connection) -> Flux.fromIterable(ordered)
					.concatMap((fence) -> statements.advance(connection, fence.handle(), fence.description()))
					.then());
		});
	}

	private record Fence(String key, LockHandle handle, String description) {
	}

	/** The fences of one reactive transaction, advanced just before it commits. */
	private static final class Fences implements TransactionSynchronization, Ordered {

		private final R2dbcTransactionFencing owner;

		// By row key: the first hold of a lock fences, a re-entry carries its token.
		private final Map<String, Fence> fences = new LinkedHashMap<>();

		Fences(R2dbcTransactionFencing owner) {
			this.owner = owner;
		}

		void add(String description, Handle handle) {
			for (LockHandle lock : handle.handles()) {
				String key = FenceTable.key(lock);
				this.fences.putIfAbsent(key, new Fence(key, lock, description));
			}
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE - 1;
		}

		@Override
		public Mono<Void> beforeCommit(boolean readOnly) {
			// A read-only transaction writes nothing that a fence would have to keep out.
			return readOnly ? Mono.empty() : this.owner.advance(this.fences);
		}

	}

}
