package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Measures the walk of one lock call that the engine's package docs write down ("The walk
 * of one lock call"): every method and constructor of distlock's own classes is
 * instrumented, and one synchronous, uncontended {@code @DistributedLock} call on a path
 * used before is recorded from the interceptor until its lock node is gone from the
 * server. A file counts when code defined in it runs (a nested type counts as its owner's
 * file). Prints the files in order of first entry and fails when there are more than the
 * docs say. Opt-in, since the instrumentation stays in the test JVM:
 * {@code ./mvnw -pl distlock-spring -am test -Dsurefire.failIfNoSpecifiedTests=false
 * -Dtest=LockCallWalkTests -Ddistlock.walk=true}.
 */
@EnabledIfSystemProperty(named = "distlock.walk", matches = "true")
class LockCallWalkTests {

	/** The count the engine's package docs give. */
	private static final int DOCUMENTED_FILES = 29;

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void anUncontendedCallOnAPathUsedBeforeEntersNoMoreFilesThanTheDocsSay() {
		new AgentBuilder.Default().disableClassFormatChanges()
			.with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
			.ignore(ElementMatchers.nameStartsWith("net.bytebuddy."))
			.type(ElementMatchers.nameStartsWith("io.github.distlock.")
				.and(ElementMatchers.not(ElementMatchers.nameContains("Tests")))
				.and(ElementMatchers.not(ElementMatchers.nameStartsWith("io.github.distlock.testsupport"))))
			.transform((builder, type, loader, module, domain) -> builder
				.visit(Advice.to(Entered.class).on(ElementMatchers.isMethod().or(ElementMatchers.isConstructor()))))
			.installOn(ByteBuddyAgent.install());
		AnnotationConfigApplicationContext context = contexts.start((prepared) -> prepared.registerBean(Orders.class));
		Orders orders = context.getBean(Orders.class);
		CuratorFramework client = context.getBean(CuratorFramework.class);
		// Warm up, the path included: its queue's parents are made, and its last node
		// was seen alone.
		for (int i = 0; i < 3; i++) {
			orders.place(1);
			awaitNoNode(client);
		}
		Recorder.entered.clear();
		Recorder.on = true;
		orders.place(1);
		awaitNoNode(client);
		Recorder.on = false;
		Map<String, Integer> files = new LinkedHashMap<>();
		for (String type : Recorder.entered) {
			int nested = type.indexOf('$');
			files.merge((nested < 0) ? type : type.substring(0, nested), 1, Integer::sum);
		}
		StringBuilder walk = new StringBuilder("The walk of one lock call: " + files.size() + " files\n");
		files.forEach((file, entries) -> walk.append("  ")
			.append(file.substring(file.lastIndexOf('.') + 1))
			.append(" (")
			.append(entries)
			.append(" entries)\n"));
		System.out.print(walk);
		assertThat(files.keySet()).first().isEqualTo(LockInterceptor.class.getName());
		assertThat(files).as(walk.toString()).hasSizeLessThanOrEqualTo(DOCUMENTED_FILES);
	}

	private static void awaitNoNode(CuratorFramework client) {
		await().atMost(Duration.ofSeconds(10)).until(() -> client.getChildren().forPath("/mutex/orders/1").isEmpty());
	}

	/** Where the instrumented methods report. */
	public static final class Recorder {

		static volatile boolean on;

		static final Queue<String> entered = new ConcurrentLinkedQueue<>();

		public static void entered(String type) {
			if (on) {
				entered.add(type);
			}
		}

	}

	/** The advice each instrumented method and constructor runs first. */
	public static final class Entered {

		@Advice.OnMethodEnter
		static void enter(@Advice.Origin("#t") String type) {
			Recorder.entered(type);
		}

	}

	static class Orders {

		@DistributedLock("orders/#{#id}")
		public String place(long id) {
			return "placed " + id;
		}

	}

}
