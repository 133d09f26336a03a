package io.github.distlock.test;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * {@link ContextCustomizerFactory} for
 * {@link AutoConfigureDistlockZooKeeper @AutoConfigureDistlockZooKeeper}.
 */
class DistlockZooKeeperContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		AutoConfigureDistlockZooKeeper annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				AutoConfigureDistlockZooKeeper.class);
		if (annotation == null) {
			return null;
		}
		Duration sessionTimeout = DurationStyle.detectAndParse(annotation.sessionTimeout());
		return new DistlockZooKeeperContextCustomizer(sessionTimeout);
	}

}
