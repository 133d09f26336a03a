package io.github.distlock.console;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.actuate.DistlockAdminAutoConfiguration;
import io.github.distlock.autoconfigure.scheduling.DistlockSchedulingAutoConfiguration;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the console is there: in a servlet web application with distlock, unless
 * {@code distlock.console.enabled=false}; its actions only with
 * {@code distlock.admin.enabled}.
 */
class DistlockConsoleAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(DistlockAutoConfiguration.class,
			DistlockSchedulingAutoConfiguration.class, DistlockAdminAutoConfiguration.class,
			DistlockConsoleAutoConfiguration.class);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withPropertyValues("distlock.zookeeper.connect-string=" + zookeeper.connectString());

	@Test
	void servletApplicationGetsTheConsoleWithoutActions() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(ConsoleController.class)
			.doesNotHaveBean(ConsoleAdminController.class));
	}

	@Test
	void adminSwitchAddsTheActions() {
		this.runner.withPropertyValues("distlock.admin.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(ConsoleController.class)
				.hasSingleBean(ConsoleAdminController.class));
	}

	@Test
	void runWhenDisabledShouldNotCreateTheConsole() {
		this.runner.withPropertyValues("distlock.console.enabled=false", "distlock.admin.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(ConsoleController.class)
				.doesNotHaveBean(ConsoleAdminController.class));
	}

	@Test
	void applicationsThatAreNotServletWebApplicationsGetNoConsole() {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withPropertyValues("distlock.zookeeper.connect-string=" + zookeeper.connectString())
			.run((context) -> assertThat(context).doesNotHaveBean(ConsoleController.class));
		new ReactiveWebApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withPropertyValues("distlock.zookeeper.connect-string=" + zookeeper.connectString())
			.run((context) -> assertThat(context).doesNotHaveBean(ConsoleController.class));
	}

}
