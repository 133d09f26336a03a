package io.github.distlock.history;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The raw Curator client's part in the leadership workload: one Curator
 * {@link LeaderLatch} per group joined, on the same {@code /leader/<group>} path as
 * distlock's participants. Relinquishing is closing the latch and starting a new one (a
 * latch cannot be started twice). Its epoch is the creating zxid of its own latch node,
 * read when it is told it leads ({@code -1} if that node is already gone); its listener
 * runs on a thread of its own, so that the read does not block Curator's threads.
 */
final class LatchMember implements LeaderMember {

	private final Node node;

	private final Leads leads;

	private final Map<String, LeaderLatch> latches = new ConcurrentHashMap<>();

	private final ExecutorService events = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "history-latch-events");
		thread.setDaemon(true);
		return thread;
	});

	LatchMember(Node node, Leads leads) {
		this.node = node;
		this.leads = leads;
	}

	@Override
	public String name() {
		return "curator-latch";
	}

	@Override
	public Node node() {
		return this.node;
	}

	@Override
	public boolean distlock() {
		return false;
	}

	/** The participant id of its latches. */
	@Override
	public String memberId() {
		return name();
	}

	@Override
	public synchronized void join(String group) throws Exception {
		if (this.latches.containsKey(group)) {
			return;
		}
		LeaderLatch latch = new LeaderLatch(this.node.client, "/leader/" + group, name(),
				LeaderLatch.CloseMode.NOTIFY_LEADER);
		latch.addListener(new LeaderLatchListener() {

			@Override
			public void isLeader() {
				LatchMember.this.leads.granted(LatchMember.this, group, epochOf(latch));
			}

			@Override
			public void notLeader() {
				LatchMember.this.leads.revoked(LatchMember.this, group, 0);
			}

		}, this.events);
		this.latches.put(group, latch);
		latch.start();
	}

	@Override
	public synchronized void leave(String group) throws Exception {
		LeaderLatch latch = this.latches.remove(group);
		if (latch != null) {
			long epoch = latch.hasLeadership() ? epochOf(latch) : 0;
			if (epoch > 0) {
				this.leads.ended(this, group, epoch, "closes its latch");
			}
			latch.close();
		}
	}

	@Override
	public synchronized void relinquish(String group) throws Exception {
		LeaderLatch latch = this.latches.get(group);
		if (latch != null && latch.hasLeadership()) {
			leave(group);
			join(group);
		}
	}

	@Override
	public boolean joined(String group) {
		return this.latches.containsKey(group);
	}

	@Override
	public boolean leads(String group) {
		LeaderLatch latch = this.latches.get(group);
		return latch != null && latch.hasLeadership();
	}

	@Override
	public @Nullable Tenure tenure(String group) {
		LeaderLatch latch = this.latches.get(group);
		if (latch == null || !latch.hasLeadership()) {
			return null;
		}
		String path = latch.getOurPath();
		long epoch = epochOf(latch);
		if (epoch <= 0 || path == null || !path.equals(latch.getOurPath())) {
			return null;
		}
		return new Tenure() {

			@Override
			public long epoch() {
				return epoch;
			}

			@Override
			public boolean held() {
				return latch.hasLeadership() && path.equals(latch.getOurPath());
			}

			@Override
			public void close() {
			}

		};
	}

	@Override
	public boolean await(String group, Duration wait) throws Exception {
		LeaderLatch latch = this.latches.get(group);
		return latch != null && latch.await(wait.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** The creating zxid of the latch's own node, {@code -1} if it has none now. */
	private long epochOf(LeaderLatch latch) {
		String path = latch.getOurPath();
		if (path == null) {
			return -1;
		}
		try {
			Stat stat = this.node.client.checkExists().forPath(path);
			return (stat != null) ? stat.getCzxid() : -1;
		}
		catch (Exception ex) {
			return -1;
		}
	}

	@Override
	public synchronized void close() {
		for (String group : java.util.List.copyOf(this.latches.keySet())) {
			try {
				leave(group);
			}
			catch (Exception ex) {
				// Closed with its client.
			}
		}
	}

	/** Stop the listener thread, once the last events were told. */
	void shutdown() throws InterruptedException {
		this.events.shutdown();
		this.events.awaitTermination(10, TimeUnit.SECONDS);
	}

}
