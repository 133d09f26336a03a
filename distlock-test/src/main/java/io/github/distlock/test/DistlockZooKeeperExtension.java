package io.github.distlock.test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that gives a test class a {@link TestZooKeeper}: a real ZooKeeper
 * server, started once for the class (or once for every class that {@link #shared()
 * shares} it), with short sessions ({@link TestZooKeeper#DEFAULT_SESSION_TIMEOUT}) so
 * that fault tests take seconds. After each test the nodes the test started are stopped,
 * every fault is undone and the server is cleaned: no lock node of one test is left for
 * the next.
 *
 * <pre class="code">
 * class OrderServiceTests {
 *
 *     &#64;RegisterExtension
 *     static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();
 *
 *     &#64;Test
 *     void shipsOnce(TestZooKeeper server) {
 *         try (DistlockNodes shop = server.startNodes(2, ShopApplication.class)) {
 *             server.expireSession(shop.first());
 *             // ...
 *         }
 *     }
 *
 * }
 * </pre>
 *
 * {@code @ExtendWith(DistlockZooKeeperExtension.class)} works too, with the defaults;
 * test and lifecycle methods then take a {@link TestZooKeeper} parameter. Registered on
 * an instance field instead of a static one, the extension starts a server for each test.
 */
public class DistlockZooKeeperExtension
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(DistlockZooKeeperExtension.class);

	private final Duration sessionTimeout;

	private final boolean shared;

	private volatile @Nullable TestZooKeeper zooKeeper;

	private volatile boolean perClass;

	private final Set<DistlockNode> classNodes = new HashSet<>();

	/** A server for the test class, for sessions of the default timeout. */
	public DistlockZooKeeperExtension() {
		this(TestZooKeeper.DEFAULT_SESSION_TIMEOUT, false);
	}

	private DistlockZooKeeperExtension(Duration sessionTimeout, boolean shared) {
		this.sessionTimeout = sessionTimeout;
		this.shared = shared;
	}

	/**
	 * The same extension for sessions of the given timeout.
	 * @param sessionTimeout the session timeout of the nodes (at least 200 ms)
	 * @return a new extension
	 */
	public DistlockZooKeeperExtension withSessionTimeout(Duration sessionTimeout) {
		return new DistlockZooKeeperExtension(sessionTimeout, this.shared);
	}

	/**
	 * The same extension, with one server for every test class of the test run that uses
	 * a shared extension of this session timeout: classes start faster, and the server is
	 * still cleaned between tests. It stops when the test run ends.
	 * @return a new extension
	 */
	public DistlockZooKeeperExtension shared() {
		return new DistlockZooKeeperExtension(this.sessionTimeout, true);
	}

	/**
	 * The server of the running test class.
	 * @return the server
	 * @throws IllegalStateException outside a test class's life
	 */
	public TestZooKeeper get() {
		TestZooKeeper zooKeeper = this.zooKeeper;
		if (zooKeeper == null) {
			throw new IllegalStateException("The ZooKeeper server starts before the test class's first test");
		}
		return zooKeeper;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.perClass = true;
		this.zooKeeper = obtain(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		if (!this.perClass) {
			this.zooKeeper = obtain(context);
		}
		TestZooKeeper zooKeeper = get();
		this.classNodes.clear();
		this.classNodes.addAll(zooKeeper.getNodes());
	}

	@Override
	public void afterEach(ExtensionContext context) {
		TestZooKeeper zooKeeper = get();
		try {
			for (DistlockNode node : zooKeeper.getNodes()) {
				if (!this.classNodes.contains(node)) {
					node.close();
				}
			}
			zooKeeper.heal();
			zooKeeper.clean();
		}
		finally {
			if (!this.perClass) {
				release(zooKeeper);
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		TestZooKeeper zooKeeper = this.zooKeeper;
		if (zooKeeper != null) {
			release(zooKeeper);
		}
	}

	private TestZooKeeper obtain(ExtensionContext context) {
		if (this.shared) {
			return context.getRoot()
				.getStore(NAMESPACE)
				.getOrComputeIfAbsent("server-" + this.sessionTimeout.toMillis(),
						(key) -> TestZooKeeper.start(this.sessionTimeout), TestZooKeeper.class);
		}
		return TestZooKeeper.start(this.sessionTimeout);
	}

	private void release(TestZooKeeper zooKeeper) {
		if (this.shared) {
			try {
				zooKeeper.closeNodes();
				zooKeeper.heal();
				zooKeeper.clean();
			}
			finally {
				this.zooKeeper = null;
			}
		}
		else {
			try {
				zooKeeper.close();
			}
			finally {
				this.zooKeeper = null;
			}
		}
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == TestZooKeeper.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		TestZooKeeper zooKeeper = this.zooKeeper;
		if (zooKeeper == null) {
			// A parameter of a @BeforeAll method of an instance-field registration.
			zooKeeper = obtain(extensionContext);
			this.zooKeeper = zooKeeper;
		}
		return zooKeeper;
	}

}
