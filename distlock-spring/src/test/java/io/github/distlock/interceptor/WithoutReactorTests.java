package io.github.distlock.interceptor;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reactor (and Kotlin's coroutines) are optional: without them on the class path the
 * interceptor still locks synchronous methods and methods returning a
 * {@code CompletableFuture}, and refuses a publisher at startup saying what to add. Runs
 * {@link WithoutReactorScenario} in a class loader that has the test class path minus
 * reactor-core, reactive-streams and kotlinx-coroutines.
 */
class WithoutReactorTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	@SuppressWarnings("unchecked")
	void synchronousAndStageMethodsAreLockedAndPublishersRefusedWithoutReactor() throws Exception {
		try (URLClassLoader loader = new URLClassLoader(
				classPathWithout("reactor-core", "reactive-streams", "kotlinx-coroutines"),
				ClassLoader.getPlatformClassLoader())) {
			Function<String, List<String>> scenario = (Function<String, List<String>>) loader
				.loadClass(WithoutReactorScenario.class.getName())
				.getDeclaredConstructor()
				.newInstance();
			assertThat(scenario.apply(zookeeper.connectString())).containsExactly("no reactor-core",
					"synchronous: held while running", "stage: held while running, released after",
					"publisher refused: the method returns java.util.concurrent.Flow$Publisher, a reactive type, "
							+ "but Project Reactor is not on the class path");
		}
	}

	private static URL[] classPathWithout(String... excluded) throws Exception {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<URL> urls = new ArrayList<>();
		for (String entry : classPath.split(File.pathSeparator)) {
			String name = new File(entry).getName();
			boolean keep = true;
			for (String prefix : excluded) {
				keep &= !name.startsWith(prefix);
			}
			if (keep && !entry.isEmpty()) {
				urls.add(new File(entry).toURI().toURL());
			}
		}
		return urls.toArray(URL[]::new);
	}

}
