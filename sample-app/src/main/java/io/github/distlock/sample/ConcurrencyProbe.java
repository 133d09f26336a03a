package io.github.distlock.sample;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

/**
 * Counts how many writers of one SKU's stock (or builders of a report) run at the same
 * time in this instance: at most 1 per SKU while the locks work, at most the permits for
 * reports. Lets the tests (and you) see the locks from the outside.
 */
@Component
public class ConcurrencyProbe {

	private final Map<String, Occupancy> occupancy = new ConcurrentHashMap<>();

	/**
	 * Run an action, counting it as a writer of the SKU.
	 * @param <T> the result type
	 * @param sku the stock keeping unit
	 * @param action the write
	 * @return the action's result
	 */
	public <T> T writing(String sku, Supplier<T> action) {
		Occupancy occupancy = this.occupancy.computeIfAbsent(sku, (key) -> new Occupancy());
		occupancy.enter();
		try {
			return action.get();
		}
		finally {
			occupancy.leave();
		}
	}

	/**
	 * Return the most writers of a SKU ever running at once in this instance.
	 * @param sku the stock keeping unit
	 * @return the most concurrent writers seen
	 */
	public int mostConcurrent(String sku) {
		Occupancy occupancy = this.occupancy.get(sku);
		return (occupancy != null) ? occupancy.most.get() : 0;
	}

	private static final class Occupancy {

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger most = new AtomicInteger();

		void enter() {
			this.most.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
		}

		void leave() {
			this.inside.decrementAndGet();
		}

	}

}
