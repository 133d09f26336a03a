package io.github.distlock.scheduling;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;

import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.JobSchedule;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.interceptor.AbstractFallbackOperationSource;

/**
 * Parses {@code @ScheduledOnce} methods once, with the {@code @Scheduled} annotation on
 * the same method, into {@link ScheduledOnceOperation}s, cached per method and target
 * class and found in the order of {@link AbstractFallbackOperationSource}; a method that
 * cannot work fails at startup with a message naming the method, the annotation and the
 * value. Names are checked to be unique among the methods this source parsed.
 */
public final class ScheduledOnceOperationSource extends AbstractFallbackOperationSource<ScheduledOnceOperation>
		implements BeanFactoryAware {

	/** How much earlier than its slot a firing of a cron schedule may come. */
	private static final Duration EARLY_FIRING = Duration.ofMillis(50);

	private final Map<String, Method> names = new ConcurrentHashMap<>();

	private volatile @Nullable StringValueResolver resolver;

	public ScheduledOnceOperationSource() {
		super(Set.of(ScheduledOnce.class));
	}

	/**
	 * Resolve {@code ${placeholders}} in the annotations' values with the bean factory's
	 * embedded value resolver.
	 */
	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableBeanFactory configurable) {
			this.resolver = new EmbeddedValueResolver(configurable);
		}
	}

	@Override
	protected @Nullable ScheduledOnceOperation findOperation(AnnotatedElement element, Method method,
			Class<?> targetClass) {
		MergedAnnotation<ScheduledOnce> found = MergedAnnotations.from(element, SearchStrategy.TYPE_HIERARCHY)
			.get(ScheduledOnce.class);
		if (!found.isPresent()) {
			return null;
		}
		// @Scheduled is on the class's method, else on the method it implements (Spring's
		// scheduling finds it on an interface method too).
		Set<Scheduled> scheduled = scheduled(method);
		if (scheduled.isEmpty()) {
			scheduled = AnnotatedElementUtils.findMergedRepeatableAnnotations(method, Scheduled.class, Schedules.class);
		}
		return parse(found.synthesize(), method, scheduled);
	}

	private static Set<Scheduled> scheduled(Method method) {
		return AnnotatedElementUtils.getMergedRepeatableAnnotations(method, Scheduled.class, Schedules.class);
	}

	private ScheduledOnceOperation parse(ScheduledOnce once, Method method, Set<Scheduled> scheduled) {
		String description = describe(method);
		String name = resolve(once.value());
		String at = description + ": @ScheduledOnce(\"" + once.value() + "\")";
		if (!StringUtils.hasText(name)) {
			throw new LockConfigurationException(at + " names no job; give the job a name unique in the namespace, "
					+ "such as @ScheduledOnce(\"nightly-report\")");
		}
		try {
			LockPath.of("jobs", name);
		}
		catch (InvalidLockPathException ex) {
			throw new LockConfigurationException(at + ": '" + name + "' cannot name a job: " + ex.getMessage(), ex);
		}
		checkReturnType(method, at);
		if (scheduled.isEmpty()) {
			throw new LockConfigurationException(at + " needs @Scheduled(cron = ...) or @Scheduled(fixedRate = ...) on "
					+ "the same method: the slots it runs once each are those of the method's own schedule");
		}
		if (scheduled.size() > 1) {
			throw new LockConfigurationException(at + " has " + scheduled.size() + " @Scheduled annotations; a job "
					+ "runs once per slot of one schedule: keep one, or give each schedule a method and a name");
		}
		Scheduled schedule = scheduled.iterator().next();
		ScheduledJob job;
		Duration early;
		String cron = resolve(schedule.cron());
		Duration rate = rate(schedule, at);
		Duration delay = delay(schedule, at);
		if (delay != null) {
			throw new LockConfigurationException(at + " is refused on @Scheduled(fixedDelay = "
					+ (StringUtils.hasText(schedule.fixedDelayString()) ? "\"" + schedule.fixedDelayString() + "\""
							: schedule.fixedDelay())
					+ "): a fixed delay counts from the end of each instance's own last run, so the instances "
					+ "share no slots; use fixedRate or cron");
		}
		if (StringUtils.hasText(cron)) {
			if (rate != null) {
				throw new LockConfigurationException(at + ": @Scheduled has both cron and fixedRate; keep one");
			}
			// A disabled cron ("-") never fires, and a call of the method has no slot.
			job = new ScheduledJob(name, Scheduled.CRON_DISABLED.equals(cron) ? NoSlots.INSTANCE
					: cronSchedule(cron, resolve(schedule.zone()), at));
			early = EARLY_FIRING;
		}
		else if (rate != null) {
			job = new ScheduledJob(name, new RateSchedule(rate));
			Duration tenth = rate.dividedBy(10);
			early = (tenth.compareTo(EARLY_FIRING) < 0) ? tenth : EARLY_FIRING;
		}
		else {
			throw new LockConfigurationException(at + " needs @Scheduled with cron or fixedRate on the same method");
		}
		Method known = this.names.putIfAbsent(name, method);
		if (known != null && !known.equals(method) && !sameMethod(known, method)) {
			throw new LockConfigurationException(at + ": job '" + name + "' is also the job of " + describe(known)
					+ "; each @ScheduledOnce method needs a name of its own");
		}
		Duration within = catchUpWithin(once, at);
		return new ScheduledOnceOperation(job, once.missed(), within, early, description);
	}

	private static void checkReturnType(Method method, String at) {
		Class<?> type = method.getReturnType();
		boolean suspending = method.getParameterCount() > 0
				&& method.getParameterTypes()[method.getParameterCount() - 1].getName()
					.equals("kotlin.coroutines.Continuation");
		if (suspending || Future.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)
				|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(type) != null) {
			throw new LockConfigurationException(at + " is refused on a method returning "
					+ ClassUtils.getShortName(type) + (suspending ? " (a suspend function)" : "")
					+ ": a run ends when the method returns; make it a plain method that does its work before "
					+ "it returns");
		}
		if (type.isPrimitive() && type != void.class) {
			throw new LockConfigurationException(at + " is refused on a method returning " + type
					+ ": a skipped firing has no value to return; return void");
		}
	}

	private static CronSchedule cronSchedule(String cron, String zone, String at) {
		CronExpression expression;
		try {
			expression = CronExpression.parse(cron);
		}
		catch (IllegalArgumentException ex) {
			throw new LockConfigurationException(
					at + ": @Scheduled(cron = \"" + cron + "\") is not a cron expression: " + ex.getMessage(), ex);
		}
		ZoneId zoneId;
		try {
			zoneId = StringUtils.hasText(zone) ? ZoneId.of(zone) : ZoneId.systemDefault();
		}
		catch (RuntimeException ex) {
			throw new LockConfigurationException(at + ": @Scheduled(zone = \"" + zone + "\") is not a time zone", ex);
		}
		return new CronSchedule(expression, zoneId);
	}

	/** The schedule of a disabled cron: no slots. */
	enum NoSlots implements JobSchedule {

		INSTANCE;

		@Override
		public @Nullable Instant slotAt(Instant time) {
			return null;
		}

		@Override
		public @Nullable Instant slotAfter(Instant slot) {
			return null;
		}

		@Override
		public String description() {
			return "disabled (cron \"-\")";
		}

	}

	private @Nullable Duration rate(Scheduled scheduled, String at) {
		return positive("fixedRate", scheduled.fixedRate(), resolve(scheduled.fixedRateString()), scheduled.timeUnit(),
				at);
	}

	private @Nullable Duration delay(Scheduled scheduled, String at) {
		if (scheduled.fixedDelay() >= 0 || StringUtils.hasText(scheduled.fixedDelayString())) {
			return Duration.ZERO;
		}
		return null;
	}

	private static @Nullable Duration positive(String attribute, long value, String text, TimeUnit unit, String at) {
		Duration duration;
		if (StringUtils.hasText(text)) {
			try {
				duration = DurationFormatterUtils.detectAndParse(text.trim(),
						org.springframework.format.annotation.DurationFormat.Unit.fromChronoUnit(unit.toChronoUnit()));
			}
			catch (RuntimeException ex) {
				throw new LockConfigurationException(
						at + ": @Scheduled(" + attribute + "String = \"" + text + "\") is not a duration", ex);
			}
		}
		else if (value >= 0) {
			duration = Duration.of(value, unit.toChronoUnit());
		}
		else {
			return null;
		}
		if (duration.toMillis() <= 0) {
			throw new LockConfigurationException(at + ": @Scheduled(" + attribute + ") " + duration
					+ " has no slots; give a rate of a millisecond or more");
		}
		return duration;
	}

	private Duration catchUpWithin(ScheduledOnce once, String at) {
		String text = resolve(once.catchUpWithin());
		Duration within;
		try {
			within = DurationFormatterUtils.detectAndParse(text.trim());
		}
		catch (RuntimeException ex) {
			throw new LockConfigurationException(
					at + ": catchUpWithin \"" + once.catchUpWithin()
							+ "\" is not a duration; use a duration such as '1d', '2h' or 'PT30M', or a ${placeholder}",
					ex);
		}
		if (within.isNegative()) {
			throw new LockConfigurationException(at + ": catchUpWithin \"" + once.catchUpWithin() + "\" is negative");
		}
		return within;
	}

	private String resolve(String value) {
		StringValueResolver resolver = this.resolver;
		if (resolver == null || !StringUtils.hasText(value)) {
			return value;
		}
		String resolved = resolver.resolveStringValue(value);
		return (resolved != null) ? resolved : value;
	}

	/** Whether one method overrides or implements the other: they declare one job. */
	private static boolean sameMethod(Method one, Method other) {
		return one.getName().equals(other.getName())
				&& Arrays.equals(one.getParameterTypes(), other.getParameterTypes())
				&& (one.getDeclaringClass().isAssignableFrom(other.getDeclaringClass())
						|| other.getDeclaringClass().isAssignableFrom(one.getDeclaringClass()));
	}

	static String describe(Method method) {
		return ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName() + "("
				+ Arrays.stream(method.getParameterTypes())
					.map(ClassUtils::getShortName)
					.collect(Collectors.joining(", "))
				+ ")";
	}

}
