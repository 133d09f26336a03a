package io.github.distlock.sample;

import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample shop.
 *
 * @param initialStock stock per SKU when the application starts
 */
@ConfigurationProperties("inventory")
public record InventoryProperties(Map<String, Integer> initialStock) {

	public InventoryProperties {
		initialStock = (initialStock != null) ? Map.copyOf(initialStock) : Map.of();
	}

}
