package io.github.distlock.benchmarks;

import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports distlock's package-private proxy configuration (operation source, interceptor,
 * advisor, auto-proxy creator) without the rest of the auto-configuration.
 */
class ProxyConfigurationImport implements DeferredImportSelector {

	@Override
	public String[] selectImports(AnnotationMetadata importingClassMetadata) {
		return new String[] { "io.github.distlock.autoconfigure.DistlockProxyConfiguration" };
	}

}
