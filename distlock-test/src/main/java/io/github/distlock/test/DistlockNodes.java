package io.github.distlock.test;

import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Nodes started together by {@link TestZooKeeper#startNodes}: several instances of the
 * application under test, each with a ZooKeeper session of its own and a
 * {@link LockRecorder} of its own, which {@link #getRecorder()} merges. Closing them
 * stops every one.
 */
public final class DistlockNodes implements Iterable<DistlockNode>, AutoCloseable {

	private final List<DistlockNode> nodes;

	private final LockRecorder recorder;

	DistlockNodes(List<DistlockNode> nodes, LockRecorder recorder) {
		this.nodes = List.copyOf(nodes);
		this.recorder = recorder;
	}

	/**
	 * The lock history of every node together: the acquisitions of all of them, in the
	 * order they started ({@link LockAcquisition#getNode()} tells whose), and
	 * {@link LockRecorder#getGranted(String)} and
	 * {@link LockRecorder#getFencingTokens(String)} in the order the lock was granted
	 * across the nodes. {@link LockRecorder#clear() Clearing} it clears the nodes'
	 * recorders too.
	 * @return the merged recorder
	 */
	public LockRecorder getRecorder() {
		return this.recorder;
	}

	/**
	 * The acquisitions of one lock that got it, on any of the nodes, in the order they
	 * got it: shorthand for {@code getRecorder().getGranted(pathOrTemplate)}.
	 * @param pathOrTemplate the lock's path ({@code inventory/widget}) or template
	 * ({@code inventory/#{#sku}})
	 * @return the acquisitions, in order of grant
	 */
	public List<LockAcquisition> acquisitions(String pathOrTemplate) {
		return this.recorder.getGranted(pathOrTemplate);
	}

	/**
	 * One node.
	 * @param index its index, from 0
	 */
	public DistlockNode get(int index) {
		return this.nodes.get(index);
	}

	/** The first node. */
	public DistlockNode first() {
		return get(0);
	}

	/** How many nodes there are. */
	public int size() {
		return this.nodes.size();
	}

	/** The nodes, as a list. */
	public List<DistlockNode> asList() {
		return this.nodes;
	}

	/** The nodes, as a stream. */
	public Stream<DistlockNode> stream() {
		return this.nodes.stream();
	}

	/**
	 * The bean of the given type of every node, in node order.
	 * @param type the bean's type
	 */
	public <T> List<T> getBeans(Class<T> type) {
		return this.nodes.stream().map((node) -> node.getBean(type)).toList();
	}

	@Override
	public Iterator<DistlockNode> iterator() {
		return this.nodes.iterator();
	}

	/** Stop every node, the last started first. */
	@Override
	public void close() {
		RuntimeException failure = null;
		for (int i = this.nodes.size() - 1; i >= 0; i--) {
			try {
				this.nodes.get(i).close();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public String toString() {
		return this.nodes.toString();
	}

}
