/**
 * Test support shared by every test package: real ZooKeeper servers
 * ({@link io.github.distlock.testsupport.ZooKeeperExtension}), client "nodes" with
 * sessions of their own ({@link io.github.distlock.testsupport.ZooKeeperNodes},
 * configured by {@link io.github.distlock.testsupport.NodeOptions}), application contexts
 * holding the lock proxy configuration
 * ({@link io.github.distlock.testsupport.LockTestContexts}) and fault injection
 * ({@link io.github.distlock.testsupport.Faults},
 * {@link io.github.distlock.testsupport.TcpRelay},
 * {@link io.github.distlock.testsupport.ServerWatches},
 * {@link io.github.distlock.testsupport.SectionProbe},
 * {@link io.github.distlock.testsupport.FencedStore}). Test classes use these rather than
 * growing harnesses of their own.
 */
package io.github.distlock.testsupport;
