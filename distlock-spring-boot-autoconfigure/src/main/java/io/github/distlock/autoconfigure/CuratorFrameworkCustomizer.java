package io.github.distlock.autoconfigure;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * Callback that tunes the auto-configured {@code CuratorFramework} before it is built.
 * Customizers run in {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface CuratorFrameworkCustomizer {

	/**
	 * Customize the builder.
	 * @param builder the builder, with distlock's settings applied
	 */
	void customize(CuratorFrameworkFactory.Builder builder);

}
