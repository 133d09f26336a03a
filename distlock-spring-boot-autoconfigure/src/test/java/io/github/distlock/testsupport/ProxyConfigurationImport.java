package io.github.distlock.testsupport;

import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the package-private {@code DistlockProxyConfiguration} (lock advisor and
 * transaction guard) into test contexts, without the rest of the auto-configuration.
 * Deferred, as auto-configurations are, so that conditions see the beans of the test
 * configurations.
 */
public class ProxyConfigurationImport implements DeferredImportSelector {

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		return new String[] { "io.github.distlock.autoconfigure.DistlockProxyConfiguration" };
	}

}
