package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;

/**
 * The creation zxids of one queue's nodes whose sequence number does not tell their place
 * (those made once the parent's child counter reached its ceiling, see
 * {@link QueueDriver#sorted}), read from ZooKeeper when a decision needs them and kept
 * while the nodes are in the queue. A queue whose counter is below the ceiling never
 * needs one: no read is added there.
 * <p>
 * A node's name is unique to one create (protected mode puts a new UUID in every name),
 * so a known creation zxid stays true while its node lives. Thread-safe.
 */
final class CreationOrder {

	private final Map<String, Long> czxids = new ConcurrentHashMap<>();

	/** The known creation zxids, by node name, for {@link QueueDriver#decide}. */
	Map<String, Long> known() {
		return this.czxids;
	}

	/** Record a node's creation zxid (our own node's, from its create). */
	void know(String name, long czxid) {
		this.czxids.put(name, czxid);
	}

	/**
	 * Read what a decision on these children lacks, then call {@code then} with
	 * {@code OK} and the children less the nodes found gone meanwhile (a node gone holds
	 * nothing), or with the first failure other than a node gone. Calls it at once,
	 * without a read, when nothing is lacking (the usual case). Forgets the nodes that
	 * left the queue.
	 * @param requests the requests of the session
	 * @param queuePath the queue's node
	 * @param children the queue's children, as read
	 * @param lockNames the names of the queue's nodes
	 * @param then called once, on the caller's thread or on Curator's event thread
	 */
	void complete(Requests requests, String queuePath, List<String> children, String[] lockNames,
			BiConsumer<KeeperException.Code, List<String>> then) {
		this.czxids.keySet().retainAll(children);
		List<String> missing = new ArrayList<>();
		for (String child : QueueDriver.atCeiling(children, lockNames)) {
			if (!this.czxids.containsKey(child)) {
				missing.add(child);
			}
		}
		if (missing.isEmpty()) {
			then.accept(KeeperException.Code.OK, children);
			return;
		}
		AtomicInteger pending = new AtomicInteger(missing.size());
		AtomicReference<KeeperException.Code> failure = new AtomicReference<>();
		List<String> gone = new java.util.concurrent.CopyOnWriteArrayList<>();
		for (String name : missing) {
			try {
				requests.stat(ZKPaths.makePath(queuePath, name), null, (event) -> {
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK && event.getStat() != null) {
						this.czxids.put(name, event.getStat().getCzxid());
					}
					else if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE) {
						gone.add(name);
					}
					else {
						failure.compareAndSet(null, code);
					}
					if (pending.decrementAndGet() == 0) {
						KeeperException.Code first = failure.get();
						if (first != null) {
							then.accept(first, children);
						}
						else {
							List<String> present = new ArrayList<>(children);
							present.removeAll(gone);
							then.accept(KeeperException.Code.OK, present);
						}
					}
				});
			}
			catch (Exception ex) {
				failure.compareAndSet(null, KeeperException.Code.SYSTEMERROR);
				if (pending.decrementAndGet() == 0) {
					then.accept(failure.get(), children);
				}
			}
		}
	}

}
