package io.github.distlock.actuate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.context.ApplicationListener;

/**
 * Counts operators' actions on the locks, from their audit events
 * ({@link DistlockAdminOperations#AUDIT_TYPE}), in {@value #ACTIONS} with the tags
 * {@code action} and {@code outcome}. A counter is registered with its first action.
 */
public class AdminActionMetrics implements ApplicationListener<AuditApplicationEvent> {

	/** Name of the counter of operators' actions. */
	public static final String ACTIONS = "distlock.admin.actions";

	private final MeterRegistry registry;

	/**
	 * Create the metrics.
	 * @param registry where the counter is registered
	 */
	public AdminActionMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void onApplicationEvent(AuditApplicationEvent event) {
		if (!DistlockAdminOperations.AUDIT_TYPE.equals(event.getAuditEvent().getType())) {
			return;
		}
		Object action = event.getAuditEvent().getData().get("action");
		Object outcome = event.getAuditEvent().getData().get("outcome");
		Counter.builder(ACTIONS)
			.description("Operators' actions on the cluster's locks and jobs, by action and outcome")
			.tag("action", String.valueOf(action))
			.tag("outcome", String.valueOf(outcome))
			.register(this.registry)
			.increment();
	}

}
