package io.github.distlock.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The template that names a {@link LockPath} in metrics and traces.
 */
class LockPathTemplateNameTests {

	@Test
	void valuesAddedAsSegmentsBecomePlaceholders() {
		assertThat(LockPath.of("orders", "42").template()).isEqualTo("orders/{}");
		assertThat(LockPath.of("tenants/eu", "acme", "order 7").template()).isEqualTo("tenants/eu/{}/{}");
		assertThat(LockPath.parse("orders").child("a/b").template()).isEqualTo("orders/{}");
	}

	@Test
	void literalPathIsItsOwnTemplate() {
		assertThat(LockPath.parse("reports/daily").template()).isEqualTo("reports/daily");
	}

	@Test
	void explicitTemplateWinsAndTakesNoPartInEquality() {
		LockPath path = LockPath.parse("inventory/widget").withTemplate("inventory/#{#sku}");
		assertThat(path.template()).isEqualTo("inventory/#{#sku}");
		assertThat(path).isEqualTo(LockPath.parse("inventory/widget"))
			.hasSameHashCodeAs(LockPath.of("inventory", "widget"));
	}

}
