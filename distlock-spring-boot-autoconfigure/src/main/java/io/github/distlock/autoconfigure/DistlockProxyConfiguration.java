package io.github.distlock.autoconfigure;

import org.springframework.context.annotation.Configuration;

/**
 * Infrastructure beans that put a lock around annotated methods. (In progress.)
 */
@Configuration(proxyBeanMethods = false)
class DistlockProxyConfiguration {

}
