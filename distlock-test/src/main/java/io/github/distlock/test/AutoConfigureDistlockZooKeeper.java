package io.github.distlock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Annotation for a Spring Boot test whose application context should use a ZooKeeper
 * server for tests instead of the one its configuration names: a {@link TestZooKeeper},
 * shared by every test context of the JVM that asks for the same session timeout, with
 * short sessions. The context connects through a
 * {@link io.github.distlock.relay.TcpRelay} of its own, so that faults can be aimed at
 * it.
 * <p>
 * The context gets three beans besides its own: the {@link TestZooKeeper} (faults,
 * {@link TestZooKeeper#startNodes more nodes}, what the server holds), the
 * {@link DistlockNode} that the context itself is, and a {@link LockRecorder} following
 * every lock the context takes. After each test method the kit stops the nodes the test
 * started, undoes every fault, cleans the server (no lock node is left for the next test)
 * and clears the recorder.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;AutoConfigureDistlockZooKeeper
 * class OrderServiceTests {
 *
 *     &#64;Autowired
 *     TestZooKeeper zookeeper;
 *
 *     &#64;Autowired
 *     DistlockNode node;
 *
 *     &#64;Test
 *     void shipUnderSessionLoss() {
 *         zookeeper.expireSession(node);
 *         // ...
 *     }
 *
 * }
 * </pre>
 *
 * The properties it sets ({@code distlock.zookeeper.connect-string},
 * {@code distlock.zookeeper.session-timeout},
 * {@code distlock.zookeeper.connection-timeout} and
 * {@code distlock.zookeeper.embedded.enabled=false}) take precedence over the
 * application's configuration and the test's {@code properties}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureDistlockZooKeeper {

	/**
	 * Session timeout of the context's ZooKeeper client, as a duration such as {@code 3s}
	 * or {@code 1500ms}: short, so that a lost session shows within seconds.
	 * @return the session timeout
	 */
	String sessionTimeout() default "3s";

}
