package io.github.distlock.sample;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An order as the client sends it: {@code {"lines": [{"sku": "widget", "quantity": 2}]}}.
 *
 * @param lines the order's lines; lines of the same SKU are added up
 */
public record OrderRequest(List<OrderLine> lines) {

	public OrderRequest {
		if (lines == null || lines.isEmpty()) {
			throw new IllegalArgumentException("An order needs at least one line");
		}
		lines = List.copyOf(lines);
	}

	/**
	 * Return the SKUs of the order: the locks it needs.
	 * @return the SKUs, sorted
	 */
	public SortedSet<String> skus() {
		return new TreeSet<>(quantities().keySet());
	}

	/**
	 * Return the quantity of each SKU.
	 * @return the quantities, sorted by SKU
	 */
	public Map<String, Integer> quantities() {
		Map<String, Integer> quantities = new TreeMap<>();
		this.lines.forEach((line) -> quantities.merge(line.sku(), line.quantity(), Integer::sum));
		return quantities;
	}

}
