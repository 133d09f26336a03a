package io.github.distlock.console;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import io.github.distlock.actuate.DistlockAdminOperations;
import io.github.distlock.actuate.DistlockEndpoint;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.autoconfigure.actuate.DistlockAdminAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.autoconfigure.scheduling.DistlockSchedulingAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJobs;

/**
 * {@link AutoConfiguration Auto-configuration} of the operator console in a servlet web
 * application: the page and its assets under {@code distlock.console.path}, its state
 * API, and, with {@code distlock.admin.enabled}, its actions. Off with
 * {@code distlock.console.enabled=false}.
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, DistlockAdminAutoConfiguration.class,
		DistlockLeadershipAutoConfiguration.class, DistlockSchedulingAutoConfiguration.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass({ DispatcherServlet.class, CuratorFramework.class })
@ConditionalOnBooleanProperty(name = "distlock.console.enabled", matchIfMissing = true)
@ConditionalOnBean({ Locks.class, DistlockProperties.class })
public final class DistlockConsoleAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ConsoleController distlockConsoleController(Locks locks, ObjectProvider<Leadership> leadership,
			ObjectProvider<ScheduledJobs> jobs, ObjectProvider<DistlockAdminOperations> operations,
			DistlockProperties properties) {
		DistlockEndpoint reader = new DistlockEndpoint(locks, leadership.getIfAvailable(), jobs.getIfAvailable(),
				operations.getIfAvailable());
		return new ConsoleController(reader, properties.getAdmin().isEnabled() && operations.getIfAvailable() != null);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("distlock.admin.enabled")
	@ConditionalOnBean(DistlockAdminOperations.class)
	ConsoleAdminController distlockConsoleAdminController(DistlockAdminOperations operations) {
		return new ConsoleAdminController(operations);
	}

	@Bean
	WebMvcConfigurer distlockConsolePage(DistlockProperties properties) {
		String path = properties.getConsole().getPath().replaceAll("/+$", "");
		return new WebMvcConfigurer() {

			@Override
			public void addResourceHandlers(ResourceHandlerRegistry registry) {
				registry.addResourceHandler(path + "/assets/**")
					.addResourceLocations("classpath:/io/github/distlock/console/assets/");
			}

			@Override
			public void addViewControllers(ViewControllerRegistry registry) {
				// The page's links are relative: it is served at the path with a slash.
				registry.addRedirectViewController(path, path + "/");
				registry.addViewController(path + "/").setViewName("forward:" + path + "/assets/index.html");
			}

		};
	}

}
