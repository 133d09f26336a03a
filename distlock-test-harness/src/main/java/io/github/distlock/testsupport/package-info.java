/**
 * The test harness shared by distlock's own tests and its test kit
 * ({@code distlock-test}), with no Spring: real ZooKeeper servers, one or an ensemble
 * ({@link io.github.distlock.testsupport.ZooKeeperEnsemble}, where distlock's tests start
 * their servers: the kit's {@code TestZooKeeper} is built on it too), a JUnit extension
 * on them ({@link io.github.distlock.testsupport.ZooKeeperExtension}, with the named
 * options a test may need: a tick time, configuration properties, a TLS port), engine
 * nodes with sessions of their own
 * ({@link io.github.distlock.testsupport.ZooKeeperNodes}, configured by
 * {@link io.github.distlock.testsupport.NodeOptions}), fault injection
 * ({@link io.github.distlock.testsupport.Faults}: a session ended on the server or
 * expired by its client; {@link io.github.distlock.testsupport.ServerState},
 * {@link io.github.distlock.testsupport.ServerWatches}), the network's faults through the
 * {@link io.github.distlock.relay.TcpRelay} of the {@code distlock-tcp-relay} module, and
 * what a test checks its locks with: a fencing-checked store
 * ({@link io.github.distlock.testsupport.FencedStore}), a concurrency probe of the code
 * under test ({@link io.github.distlock.testsupport.ConcurrencyProbe}) and one of the
 * lock's holders as ZooKeeper sees them
 * ({@link io.github.distlock.testsupport.SectionProbe}). Test classes use these rather
 * than growing harnesses of their own. The Spring parts of distlock's own tests
 * (application contexts and context runners on the extension's server) live beside those
 * tests, in the same package.
 */
package io.github.distlock.testsupport;
