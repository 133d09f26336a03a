package io.github.distlock.faults;

import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the package-private {@code DistlockProxyConfiguration} (lock advisor and
 * transaction guard) into test contexts, deferred as auto-configurations are.
 */
class ProxyConfigurationImport implements DeferredImportSelector {

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		return new String[] { "io.github.distlock.autoconfigure.DistlockProxyConfiguration" };
	}

}
