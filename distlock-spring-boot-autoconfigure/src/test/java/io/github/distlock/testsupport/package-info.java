/**
 * Test support shared by every test package: real ZooKeeper servers
 * ({@link io.github.distlock.testsupport.ZooKeeperExtension}, with the named options a
 * test may need: a tick time, configuration properties, a TLS port), client "nodes" with
 * sessions of their own ({@link io.github.distlock.testsupport.ZooKeeperNodes},
 * configured by {@link io.github.distlock.testsupport.NodeOptions}), application contexts
 * holding the lock proxy configuration
 * ({@link io.github.distlock.testsupport.LockTestContexts}), applications of the
 * auto-configuration against the extension's server with the shared property block
 * ({@link io.github.distlock.testsupport.DistlockContextRunners}: context runners,
 * command-line arguments, the {@code @DynamicPropertySource} connect string) and fault
 * injection ({@link io.github.distlock.testsupport.Faults},
 * {@link io.github.distlock.testsupport.ServerWatches},
 * {@link io.github.distlock.testsupport.SectionProbe},
 * {@link io.github.distlock.testsupport.FencedStore}; the network's faults are the
 * {@link io.github.distlock.relay.TcpRelay} of the {@code distlock-tcp-relay} module,
 * shared with the test kit and the benchmarks). Test classes use these rather than
 * growing harnesses of their own; only ensembles (curator-test's {@code TestingCluster},
 * and the history checker's {@code Ensemble}) start servers outside the extension.
 */
package io.github.distlock.testsupport;
