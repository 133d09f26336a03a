package io.github.distlock.sample;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample shop.
 *
 * @param instanceId name of this instance, recorded with orders and job runs; random when
 * not set
 * @param initialStock stock per SKU, inserted at startup when the SKU is not in the
 * database yet
 * @param initialPriceCents price in cents of every SKU inserted at startup
 * @param thinkTime pause between reading the stock and writing it back: the window in
 * which two unlocked purchases race
 * @param reportTime how long the sales report takes beyond its query (it stands for an
 * expensive report)
 * @param restock the restock job
 */
@ConfigurationProperties("shop")
public record ShopProperties(@Nullable String instanceId, Map<String, Integer> initialStock,
		@DefaultValue("1000") long initialPriceCents, @DefaultValue("2ms") Duration thinkTime,
		@DefaultValue("200ms") Duration reportTime, @DefaultValue Restock restock) {

	public ShopProperties {
		instanceId = (instanceId != null && !instanceId.isBlank()) ? instanceId
				: "shop-" + UUID.randomUUID().toString().substring(0, 8);
		initialStock = (initialStock != null) ? Map.copyOf(initialStock) : Map.of();
	}

	/**
	 * The restock job: refills SKUs that run low, once per period across all instances.
	 *
	 * @param cron when the job fires on every instance (all instances fire at the same
	 * moment, the worst case for a "once per period" job)
	 * @param period the period a run covers; the runs listed by {@code /api/restock/runs}
	 * are keyed by {@code slotEpochMillis / period}, so it should match the cron
	 * expression
	 * @param below SKUs with fewer items than this are refilled
	 * @param upTo how many items a refilled SKU has afterwards
	 * @param workTime how long a run takes beyond its SQL (it stands for calling the
	 * supplier): the window in which an unlocked second instance would run the same
	 * period
	 */
	public record Restock(@DefaultValue("0 * * * * *") String cron, @DefaultValue("1m") Duration period,
			@DefaultValue("3") int below, @DefaultValue("10") int upTo, @DefaultValue("100ms") Duration workTime) {

	}

}
