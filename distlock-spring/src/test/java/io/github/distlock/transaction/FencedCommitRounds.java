package io.github.distlock.transaction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperEnsemble;
import io.github.distlock.testsupport.ZooKeeperNodes;

/**
 * The checker's fenced store on a real database ({@link FencedCommits}), in rounds: in
 * each round two or three holders on distlock nodes (one of them behind a relay) take one
 * mutex after one another and open a fenced transaction each. While a holder is inside
 * its transaction, a fault may strike (the relay in front of its node stops forwarding or
 * drops its connections, or a server is stopped and started again); then the holder
 * commits at once, or keeps its transaction open and loses the lock before the next
 * holder takes it: its session is ended on the server, or it releases. The open
 * transactions then commit in a random order. Every commit attempt is recorded with
 * whether the holder's lock node still existed on the server after it (looked up before
 * the holder lets the lock go); the database's own record of what it committed, in commit
 * order, is judged at the end. Every random choice is drawn from a generator seeded from
 * the settings' seed.
 */
final class FencedCommitRounds {

	/** Number of lock paths the rounds take in turn. */
	static final int PATHS = 3;

	/** Number of distlock nodes; the last one talks to the servers through the relay. */
	static final int NODES = 3;

	private final Settings settings;

	private final Random random;

	private final Map<String, Integer> faults = new TreeMap<>();

	private final Map<String, Long> nanosBy = new TreeMap<>();

	private final Map<Integer, List<String>> transcripts = new TreeMap<>();

	private final List<String> harness = new ArrayList<>();

	FencedCommitRounds(Settings settings) {
		this.settings = settings;
		this.random = new Random(settings.seed());
	}

	static String lock(int round) {
		return "mutex/f" + (round % PATHS);
	}

	/**
	 * Run the rounds and judge them.
	 * @return what was found
	 */
	Result execute() throws Exception {
		long started = System.nanoTime();
		List<String> locks = new ArrayList<>();
		for (int p = 0; p < PATHS; p++) {
			locks.add(lock(p));
		}
		FencedCommits commits = new FencedCommits(locks, this.settings.store());
		ExecutorService executor = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, "fenced-history-holder");
			thread.setDaemon(true);
			return thread;
		});
		ServerWatches.enable();
		try (ZooKeeperEnsemble ensemble = Faults.shortSessionServers(this.settings.servers());
				TcpRelay relay = new TcpRelay(ensemble.port(0))) {
			ZooKeeperNodes clients = new ZooKeeperNodes(Faults.NODES);
			List<Member> members = new ArrayList<>();
			try {
				for (int i = 0; i < NODES; i++) {
					boolean throughRelay = i == NODES - 1;
					CuratorFramework client = clients
						.client(throughRelay ? relay.getConnectString() : ensemble.connectString());
					CuratorLocks nodeLocks = Faults.NODES.createLocks(client);
					members.add(new Member("node" + i + (throughRelay ? "/relay" : ""), client, nodeLocks,
							commits.writer(nodeLocks), throughRelay));
				}
				CuratorFramework observer = clients.client(ensemble.connectString());
				for (CuratorFramework client : List.of(members.get(0).client, members.get(1).client,
						members.get(2).client, observer)) {
					if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
						throw new IllegalStateException("a client did not connect");
					}
				}
				Context context = new Context(ensemble, relay, observer, members, commits, executor);
				for (int round = 0; round < this.settings.rounds(); round++) {
					playRound(context, round);
				}
			}
			finally {
				relay.resume();
				ensemble.restart();
				for (Member member : members) {
					member.writer.close();
					member.locks.close();
				}
				clients.closeQuietly();
			}
		}
		finally {
			executor.shutdownNow();
		}
		FencedCommits.Judgement judgement = commits.judge();
		commits.shutdown();
		List<String> violations = new ArrayList<>(this.harness);
		violations.addAll(judgement.violations());
		Map<String, Long> millisBy = new TreeMap<>();
		this.nanosBy.forEach((what, nanos) -> millisBy.put(what, TimeUnit.NANOSECONDS.toMillis(nanos)));
		return new Result(this.settings, judgement, violations, Map.copyOf(this.faults), millisBy,
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), excerpts(judgement));
	}

	private void playRound(Context context, int round) throws Exception {
		String lock = lock(round);
		String path = lock.substring(lock.indexOf('/') + 1);
		int count = 2 + this.random.nextInt(2);
		List<Hold> open = new ArrayList<>();
		List<Hold> all = new ArrayList<>();
		int avoid = -1;
		for (int h = 0; h < count; h++) {
			boolean last = h == count - 1;
			// Every draw is made whatever happens, so the choices repeat with the seed.
			int fault = this.random.nextInt(100);
			int drawn = this.random.nextInt(NODES);
			int end = this.random.nextInt(5);
			long downtime = 100 + this.random.nextInt(900);
			boolean drop = this.random.nextBoolean();
			int server = this.random.nextInt(context.ensemble.size());
			int nodeIndex = (fault < 12) ? NODES - 1 : (drawn == avoid) ? (drawn + 1) % NODES : drawn;
			Member member = context.members.get(nodeIndex);
			long acquiring = System.nanoTime();
			Hold hold = acquire(context, round, h, member, path, lock);
			spent("acquire", acquiring);
			if (hold == null) {
				break;
			}
			all.add(hold);
			// A fault while the holder is inside its transaction.
			if (fault < 12) {
				fault(round, "relay" + (drop ? " drops, then paused" : " paused") + " for " + downtime + " ms", () -> {
					if (drop) {
						context.relay.dropConnections();
					}
					context.relay.pause();
					park(downtime);
					context.relay.resume();
				});
			}
			else if (fault < 17) {
				fault(round, "server " + server + " stopped for " + downtime + " ms", () -> {
					context.ensemble.stop(server);
					park(downtime);
					context.ensemble.restart(server);
				});
			}
			if (end == 0) {
				// Commits at once, then releases.
				commit(context, round, hold);
				hold.close();
				continue;
			}
			open.add(hold);
			if (last) {
				break;
			}
			if (end <= 2) {
				// Its session ends on the server while its transaction is open.
				fault(round, "session of " + member.name + " ended while " + hold + " is inside", () -> {
					Faults.killSession(member.client, context.ensemble.connectString());
				});
				avoid = nodeIndex;
			}
			else {
				transcript(round, hold + " releases, its transaction open");
				hold.released = true;
			}
			// Closed either way: a lost hold stays its holder's until closed.
			hold.close();
		}
		Collections.shuffle(open, this.random);
		for (Hold hold : open) {
			commit(context, round, hold);
		}
		for (Hold hold : all) {
			hold.close();
		}
	}

	/**
	 * A holder's lock and fenced transaction, begun on the executor: the holder is the
	 * writer's once it reported both; tried again when the lock was not acquired.
	 */
	private Hold acquire(Context context, int round, int h, Member member, String path, String lock)
			throws InterruptedException {
		for (int attempt = 0; attempt < 5; attempt++) {
			Hold hold = new Hold(round, member.name + "#" + round + "." + h, member, path, lock);
			hold.start(context);
			try {
				CompletableFuture.anyOf(hold.opened, hold.outcome).get(60, TimeUnit.SECONDS);
			}
			catch (ExecutionException ex) {
				// The outcome, failed: told below.
			}
			catch (TimeoutException ex) {
				harness(round, "harness: " + hold.name + " did not open its transaction within 60 s");
				return null;
			}
			if (hold.opened.isDone()) {
				transcript(round, hold + " acquired" + ((attempt > 0) ? " at attempt " + (attempt + 1) : ""));
				return hold;
			}
			Throwable failure = failure(hold.outcome);
			if (!(failure instanceof DistributedLockException)) {
				harness(round, "harness: " + hold.name + " failed before its transaction: " + trace(failure));
				return null;
			}
			// Its session ended, or the servers are still coming back.
			transcript(round, member.name + " did not acquire " + lock + ": " + failure);
		}
		harness(round,
				"liveness: " + member.name + " did not acquire " + lock + " in 5 attempts of " + FencedCommits.WAIT);
		return null;
	}

	private static Throwable failure(CompletableFuture<Long> outcome) {
		try {
			outcome.join();
			return new IllegalStateException("completed without opening its transaction");
		}
		catch (CompletionException ex) {
			return (ex.getCause() != null) ? ex.getCause() : ex;
		}
	}

	private void commit(Context context, int round, Hold hold) throws Exception {
		long committing = System.nanoTime();
		hold.write.countDown();
		long newer;
		try {
			newer = hold.outcome.get(60, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			harness(round, "harness: the commit of " + hold + " failed: " + trace(ex));
			return;
		}
		spent("commit", committing);
		boolean heldAfter = hold.heldAfter;
		this.nanosBy.merge("look", hold.lookNanos, Long::sum);
		FencedCommits.Attempt attempt = new FencedCommits.Attempt(round, hold.name, hold.lock,
				hold.handle().fencingToken(), newer == 0, newer, heldAfter);
		transcript(round, attempt.toString());
		context.commits.record(attempt);
	}

	/**
	 * Whether a lock node exists, as the observer (a client that no fault is aimed at)
	 * reads it; asked again while the servers are coming back. A node once gone never
	 * comes back, so "exists" proves it existed up to now.
	 */
	private static boolean exists(CuratorFramework observer, String node) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			try {
				return observer.checkExists().forPath(node) != null;
			}
			catch (Exception ex) {
				park(100);
			}
		}
		return false;
	}

	private void fault(int round, String what, FaultAction action) {
		String kind = what.split(" ")[0];
		this.faults.merge(kind, 1, Integer::sum);
		transcript(round, "fault: " + what);
		long started = System.nanoTime();
		try {
			action.run();
		}
		catch (Exception ex) {
			transcript(round, "fault failed: " + ex);
		}
		spent(kind, started);
	}

	private void spent(String what, long since) {
		this.nanosBy.merge(what, System.nanoTime() - since, Long::sum);
	}

	private void transcript(int round, String line) {
		this.transcripts.computeIfAbsent(round, (key) -> new ArrayList<>()).add(line);
	}

	private void harness(int round, String text) {
		transcript(round, text);
		this.harness.add("round " + round + ": " + text);
	}

	/** The transcripts of the first rounds a violation names. */
	private String excerpts(FencedCommits.Judgement judgement) {
		return judgement.flagged()
			.stream()
			.limit(3)
			.map((round) -> "round " + round + ":\n\t" + String.join("\n\t", this.transcripts.get(round)))
			.collect(Collectors.joining("\n"));
	}

	@FunctionalInterface
	private interface FaultAction {

		void run() throws Exception;

	}

	private record Context(ZooKeeperEnsemble ensemble, TcpRelay relay, CuratorFramework observer, List<Member> members,
			FencedCommits commits, ExecutorService executor) {
	}

	/** A distlock node: its client, its engine and its fenced transactions. */
	private record Member(String name, CuratorFramework client, CuratorLocks locks, FencedCommits.Writer writer,
			boolean throughRelay) {
	}

	/** A hold and its fenced transaction, open until told to write and commit. */
	private static final class Hold {

		final int round;

		final String name;

		final Member member;

		final String path;

		final String lock;

		final CompletableFuture<LockHandle> opened = new CompletableFuture<>();

		final CountDownLatch write = new CountDownLatch(1);

		volatile boolean released;

		private boolean closed;

		CompletableFuture<Long> outcome;

		Hold(int round, String name, Member member, String path, String lock) {
			this.round = round;
			this.name = name;
			this.member = member;
			this.path = path;
			this.lock = lock;
		}

		/** The hold, once the writer reported it. */
		LockHandle handle() {
			return this.opened.join();
		}

		/**
		 * Whether the lock node existed after the commit attempt, before the writer let
		 * go.
		 */
		volatile boolean heldAfter;

		volatile long lookNanos;

		void start(Context context) {
			this.outcome = CompletableFuture.supplyAsync(() -> this.member.writer.write(this.path, this.lock, this.name,
					this.opened::complete, () -> awaitQuietly(this.write), () -> look(context)), context.executor);
		}

		private void look(Context context) {
			long started = System.nanoTime();
			this.heldAfter = !this.released && exists(context.observer, handle().nodePath().orElseThrow());
			this.lookNanos = System.nanoTime() - started;
		}

		void close() {
			if (!this.closed) {
				this.closed = true;
				handle().close();
			}
		}

		@Override
		public String toString() {
			return this.name + " (token " + handle().fencingToken() + ")";
		}

	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			if (!latch.await(120, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not told to write");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What a run does.
	 *
	 * @param seed the seed of every random choice
	 * @param rounds number of rounds
	 * @param servers 1 for a single server, 3 for an ensemble
	 * @param store the database and how the nodes reach it
	 */
	record Settings(long seed, int rounds, int servers, FencedCommits.Store store) {

		Settings(long seed, int rounds, int servers) {
			this(seed, rounds, servers, FencedCommits.Store.h2(FencedCommits.Access.JDBC));
		}

		@Override
		public String toString() {
			return "seed " + this.seed + ", " + this.rounds + " rounds, " + this.servers + " server(s)";
		}

	}

	/**
	 * What a run found.
	 *
	 * @param settings what it did
	 * @param judgement what the database accepted and refused
	 * @param violations the judgement's and the harness's
	 * @param faults injected faults by kind
	 * @param millisBy time spent acquiring, committing, looking at lock nodes and in each
	 * kind of fault
	 * @param millis how long the run took
	 * @param excerpts transcripts of the first rounds with a violation
	 */
	record Result(Settings settings, FencedCommits.Judgement judgement, List<String> violations,
			Map<String, Integer> faults, Map<String, Long> millisBy, long millis, String excerpts) {

		String report() {
			FencedCommits.Judgement j = this.judgement;
			StringBuilder text = new StringBuilder("Fenced commits on ").append(this.settings.store())
				.append(", ")
				.append(this.settings)
				.append(" (rerun: -Ddistlock.history.fenced.seed=")
				.append(this.settings.seed())
				.append("), ")
				.append(this.millis)
				.append(" ms: ")
				.append(j.attempts())
				.append(" commit attempts, ")
				.append(j.committed())
				.append(" committed, ")
				.append(j.refused())
				.append(" refused as stale, ")
				.append(j.proven())
				.append(" by holders whose lock node was there after; faults ")
				.append(new TreeMap<>(this.faults))
				.append(", ms spent ")
				.append(this.millisBy)
				.append("; stale commits accepted ")
				.append(j.staleAccepted())
				.append(", rightful commits refused ")
				.append(j.rightfulRefused());
			this.violations.stream().limit(10).forEach((violation) -> text.append("\nVIOLATION ").append(violation));
			if (!this.excerpts.isEmpty()) {
				text.append('\n').append(this.excerpts);
			}
			return text.toString();
		}

	}

	private static void park(long millis) {
		long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		long left;
		while ((left = until - System.nanoTime()) > 0) {
			java.util.concurrent.locks.LockSupport.parkNanos(left);
		}
	}

	private static String trace(Throwable ex) {
		java.io.StringWriter out = new java.io.StringWriter();
		ex.printStackTrace(new java.io.PrintWriter(out));
		String text = out.toString();
		return (text.length() > 3000) ? text.substring(0, 3000) + "..." : text;
	}

}
