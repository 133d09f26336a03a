package io.github.distlock.actuate;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * Micrometer metrics of lock acquisitions and holds, tagged by kind of lock and path
 * {@linkplain LockPath#template() template} (never by resolved path):
 * <ul>
 * <li>{@value #ACQUIRE} timer: time to acquire, tags {@code kind}, {@code name},
 * {@code outcome} ({@code acquired}, {@code timed_out}, {@code cancelled},
 * {@code failed});</li>
 * <li>{@value #HOLD} timer: time from acquisition to release, tags {@code kind},
 * {@code name};</li>
 * <li>{@value #ACTIVE} long task timer: locks held and acquisitions waiting now, and for
 * how long, tags {@code kind}, {@code name}, {@code state} ({@code held},
 * {@code waiting});</li>
 * <li>{@value #LOST} counter: held locks lost (session expired, or connection suspended
 * under the default policy), tags {@code kind}, {@code name}.</li>
 * </ul>
 * Meters are created once per kind and template and then reused.
 */
public final class LockMetrics implements LockEventListener {

	/** Name of the acquisition timer. */
	public static final String ACQUIRE = "distlock.acquire";

	/** Name of the hold timer. */
	public static final String HOLD = "distlock.hold";

	/** Name of the long task timer of held locks and waiting acquisitions. */
	public static final String ACTIVE = "distlock.active";

	/** Name of the lost-lock counter. */
	public static final String LOST = "distlock.lost";

	private final MeterRegistry registry;

	private final Clock clock;

	private final ConcurrentHashMap<String, Meters>[] meters;

	/**
	 * Create the metrics.
	 * @param registry where to register them
	 */
	@SuppressWarnings("unchecked")
	public LockMetrics(MeterRegistry registry) {
		this.registry = registry;
		this.clock = registry.config().clock();
		this.meters = new ConcurrentHashMap[LockKind.values().length];
		for (int i = 0; i < this.meters.length; i++) {
			this.meters[i] = new ConcurrentHashMap<>();
		}
	}

	@Override
	public AcquisitionListener acquiring(LockKind kind, LockPath path) {
		ConcurrentHashMap<String, Meters> ofKind = this.meters[kind.ordinal()];
		String name = path.template();
		Meters meters = ofKind.get(name);
		if (meters == null) {
			meters = ofKind.computeIfAbsent(name, (template) -> new Meters(this.registry, kind, template));
		}
		return new MeteredAcquisition(meters, this.clock);
	}

	private static final class Meters {

		private final Timer acquired;

		private final Timer timedOut;

		private final Timer failed;

		private final Timer cancelled;

		private final Timer hold;

		private final LongTaskTimer held;

		private final LongTaskTimer waiting;

		private final Counter lost;

		Meters(MeterRegistry registry, LockKind kind, String name) {
			Tags tags = Tags.of(LockTags.KIND, LockTags.kind(kind), LockTags.NAME, name);
			this.acquired = acquireTimer(registry, tags, LockTags.ACQUIRED);
			this.timedOut = acquireTimer(registry, tags, LockTags.TIMED_OUT);
			this.failed = acquireTimer(registry, tags, LockTags.FAILED);
			this.cancelled = acquireTimer(registry, tags, LockTags.CANCELLED);
			this.hold = Timer.builder(HOLD)
				.description("Time distributed locks were held, from acquisition to release")
				.tags(tags)
				.register(registry);
			this.held = LongTaskTimer.builder(ACTIVE)
				.description("Distributed locks held or waited for now by this instance")
				.tags(tags)
				.tag(LockTags.STATE, "held")
				.register(registry);
			this.waiting = LongTaskTimer.builder(ACTIVE)
				.description("Distributed locks held or waited for now by this instance")
				.tags(tags)
				.tag(LockTags.STATE, "waiting")
				.register(registry);
			this.lost = Counter.builder(LOST)
				.description("Distributed locks lost while held (session expired or connection suspended)")
				.tags(tags)
				.register(registry);
		}

		private static Timer acquireTimer(MeterRegistry registry, Tags tags, String outcome) {
			return Timer.builder(ACQUIRE)
				.description("Time to acquire distributed locks, by outcome")
				.tags(tags)
				.tag(LockTags.OUTCOME, outcome)
				.register(registry);
		}

	}

	private static final class MeteredAcquisition implements AcquisitionListener {

		private final Meters meters;

		private final Clock clock;

		private final long start;

		private final LongTaskTimer.Sample waiting;

		private long acquiredAt;

		private LongTaskTimer.Sample held;

		MeteredAcquisition(Meters meters, Clock clock) {
			this.meters = meters;
			this.clock = clock;
			this.start = clock.monotonicTime();
			this.waiting = meters.waiting.start();
		}

		@Override
		public void acquired(long fencingToken) {
			this.waiting.stop();
			this.acquiredAt = this.clock.monotonicTime();
			this.meters.acquired.record(this.acquiredAt - this.start, TimeUnit.NANOSECONDS);
			this.held = this.meters.held.start();
		}

		@Override
		public void timedOut() {
			this.waiting.stop();
			this.meters.timedOut.record(this.clock.monotonicTime() - this.start, TimeUnit.NANOSECONDS);
		}

		@Override
		public void cancelled() {
			this.waiting.stop();
			this.meters.cancelled.record(this.clock.monotonicTime() - this.start, TimeUnit.NANOSECONDS);
		}

		@Override
		public void failed(Throwable error) {
			this.waiting.stop();
			this.meters.failed.record(this.clock.monotonicTime() - this.start, TimeUnit.NANOSECONDS);
		}

		@Override
		public void lost() {
			this.meters.lost.increment();
		}

		@Override
		public void released() {
			if (this.held != null) {
				this.held.stop();
			}
			this.meters.hold.record(this.clock.monotonicTime() - this.acquiredAt, TimeUnit.NANOSECONDS);
		}

	}

}
