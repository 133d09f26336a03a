package io.github.distlock.curator;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.PartitionAssignedEvent;
import io.github.distlock.core.PartitionListener;
import io.github.distlock.core.PartitionRevokedEvent;

/**
 * The {@link PartitionListener}s of one partitioned group, told on the engine's event
 * thread, in order. A listener that fails is logged, and the others are told.
 */
final class PartitionEvents {

	private static final Logger logger = LoggerFactory.getLogger(PartitionEvents.class);

	private final Threads threads;

	private final List<PartitionListener> listeners = new CopyOnWriteArrayList<>();

	PartitionEvents(Threads threads) {
		this.threads = threads;
	}

	void add(PartitionListener listener) {
		this.listeners.add(listener);
	}

	void assigned(PartitionAssignedEvent event) {
		this.threads.reportLoss(() -> {
			for (PartitionListener listener : this.listeners) {
				try {
					listener.assigned(event);
				}
				catch (RuntimeException ex) {
					logger.warn("Partition listener failed on {}", event, ex);
				}
			}
		});
	}

	/**
	 * Tell the listeners that an ownership ends.
	 * @return completes once every listener returned
	 */
	CompletableFuture<Void> revoked(PartitionRevokedEvent event) {
		CompletableFuture<Void> told = new CompletableFuture<>();
		this.threads.reportLoss(() -> {
			try {
				for (PartitionListener listener : this.listeners) {
					try {
						listener.revoked(event);
					}
					catch (RuntimeException ex) {
						logger.warn("Partition listener failed on {}", event, ex);
					}
				}
			}
			finally {
				told.complete(null);
			}
		});
		return told;
	}

}
