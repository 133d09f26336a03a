/**
 * distlock's test kit, for the tests of applications that use distlock: a ZooKeeper
 * server for tests ({@link io.github.distlock.test.DistlockZooKeeperExtension} for JUnit
 * 5, {@link io.github.distlock.test.AutoConfigureDistlockZooKeeper} for Spring Boot
 * tests), several instances of the application as nodes, faults on demand aimed at one
 * node or all ({@link io.github.distlock.test.TestZooKeeper}), test doubles for started
 * nodes ({@link io.github.distlock.test.TestBeans}), a gate to hold a call inside its
 * lock ({@link io.github.distlock.test.CallGate}), assertions on locks
 * ({@link io.github.distlock.test.LockRecorder}, one per node, merged by
 * {@link io.github.distlock.test.DistlockNodes};
 * {@link io.github.distlock.testsupport.ConcurrencyProbe},
 * {@link io.github.distlock.testsupport.FencedStore}), and a test mode for
 * {@code LockContext.assertHeld()} in plain unit tests
 * ({@link io.github.distlock.test.LockAssertions}).
 */
@NullMarked
package io.github.distlock.test;

import org.jspecify.annotations.NullMarked;
