package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sharing, reuse and bounded retention of recipes.
 */
class RecipeCacheTest {

	@Test
	void usersOfOnePathShareTheRecipeAndTheNextUserReusesIt() {
		RecipeCache<Object> cache = new RecipeCache<>(4);
		AtomicInteger created = new AtomicInteger();
		RecipeCache.Entry<Object> first = cache.retain("a", (key) -> created.incrementAndGet());
		RecipeCache.Entry<Object> second = cache.retain("a", (key) -> created.incrementAndGet());
		assertThat(second).isSameAs(first);
		assertThat(cache.inUse()).isEqualTo(1);
		cache.release(first);
		cache.release(second);
		assertThat(cache.inUse()).isZero();
		assertThat(cache.idle()).isEqualTo(1);
		assertThat(cache.retain("a", (key) -> created.incrementAndGet()).recipe()).isEqualTo(1);
		assertThat(created).hasValue(1);
		assertThat(cache.idle()).isZero();
	}

	@Test
	void idleRecipesStayWithinTheirBoundWhateverTheNumberOfKeys() {
		RecipeCache<Object> cache = new RecipeCache<>(16);
		List<RecipeCache.Entry<Object>> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(cache.retain("held-" + i, (key) -> new Object()));
		}
		for (int i = 0; i < 100_000; i++) {
			cache.release(cache.retain("key-" + i, (key) -> new Object()));
			assertThat(cache.idle()).isLessThanOrEqualTo(16);
		}
		// Entries in use are never dropped.
		assertThat(cache.inUse()).isEqualTo(3);
		for (int i = 0; i < held.size(); i++) {
			assertThat(cache.peek("held-" + i)).isSameAs(held.get(i).recipe());
			cache.release(held.get(i));
		}
		assertThat(cache.inUse()).isZero();
	}

	@Test
	void withoutAnAllowanceTheRecipeIsDroppedWithItsLastUser() {
		RecipeCache<Object> cache = new RecipeCache<>(0);
		AtomicInteger created = new AtomicInteger();
		cache.release(cache.retain("a", (key) -> created.incrementAndGet()));
		assertThat(cache.peek("a")).isNull();
		assertThat(cache.idle()).isZero();
		cache.release(cache.retain("a", (key) -> created.incrementAndGet()));
		assertThat(created).hasValue(2);
	}

}
