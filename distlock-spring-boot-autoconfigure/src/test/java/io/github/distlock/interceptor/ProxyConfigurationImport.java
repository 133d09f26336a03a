package io.github.distlock.interceptor;

import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the package-private {@code DistlockProxyConfiguration} into test contexts,
 * without the rest of the auto-configuration.
 */
class ProxyConfigurationImport implements ImportSelector {

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		return new String[] { "io.github.distlock.autoconfigure.DistlockProxyConfiguration" };
	}

}
