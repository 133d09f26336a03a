package io.github.distlock.test;

import java.util.function.Supplier;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.testsupport.ConcurrencyProbe;

/**
 * Hands objects of a test to the application contexts that
 * {@link TestZooKeeper#startNodes} starts, as beans: a test double (a store that holds
 * calls at a {@link CallGate}, a clock, a {@link ConcurrencyProbe} shared by every node)
 * that the test keeps a reference to, with no static field in between.
 *
 * <pre class="code">
 * CallGate gate = new CallGate();
 * try (DistlockNodes shop = zookeeper.startNodes(2, ShopApplication.class,
 *         (builder) -&gt; builder.initializers(TestBeans.primary(StockStore.class, () -&gt; new GatedStockStore(gate))))) {
 *     ...
 * }
 * </pre>
 *
 * Each node calls the supplier once; a supplier that returns the same object shares it
 * between the nodes.
 */
public final class TestBeans {

	private TestBeans() {
	}

	/**
	 * A bean of the given type, made by the supplier and marked primary, so that it wins
	 * over the application's own bean of that type wherever one is injected by type.
	 * @param type the type the application injects (the double may be a subclass)
	 * @param supplier makes the bean, once per node
	 * @param <T> the type
	 * @return an initializer for {@code SpringApplicationBuilder.initializers(...)}
	 */
	public static <T> ApplicationContextInitializer<ConfigurableApplicationContext> primary(Class<T> type,
			Supplier<? extends T> supplier) {
		return register(type, supplier, true);
	}

	/**
	 * A bean of the given type, made by the supplier, beside the application's beans (for
	 * a type the application does not define).
	 * @param type the bean's type
	 * @param supplier makes the bean, once per node
	 * @param <T> the type
	 * @return an initializer for {@code SpringApplicationBuilder.initializers(...)}
	 */
	public static <T> ApplicationContextInitializer<ConfigurableApplicationContext> bean(Class<T> type,
			Supplier<? extends T> supplier) {
		return register(type, supplier, false);
	}

	private static <T> ApplicationContextInitializer<ConfigurableApplicationContext> register(Class<T> type,
			Supplier<? extends T> supplier, boolean primary) {
		return (context) -> {
			if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
				throw new IllegalStateException("Cannot register a test bean of " + type.getName() + " in " + context);
			}
			RootBeanDefinition definition = new RootBeanDefinition(type);
			definition.setInstanceSupplier(supplier::get);
			definition.setPrimary(primary);
			registry.registerBeanDefinition("distlockTest" + (primary ? "Primary" : "") + type.getSimpleName() + "#"
					+ System.identityHashCode(supplier), definition);
		};
	}

}
