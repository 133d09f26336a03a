package io.github.distlock.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The distlock sample application: a shop whose purchases and orders never oversell,
 * however many instances run, and whose restock job runs once per period across them.
 */
@SpringBootApplication
@EnableScheduling
@EnableConfigurationProperties(ShopProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
