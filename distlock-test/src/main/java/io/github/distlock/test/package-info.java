/**
 * distlock's test kit, for the tests of applications that use distlock: a ZooKeeper
 * server for tests ({@link io.github.distlock.test.DistlockZooKeeperExtension} for JUnit
 * 5, {@link io.github.distlock.test.AutoConfigureDistlockZooKeeper} for Spring Boot
 * tests), several instances of the application as nodes, faults on demand aimed at one
 * node or all ({@link io.github.distlock.test.TestZooKeeper}), and assertions on locks
 * ({@link io.github.distlock.test.LockRecorder},
 * {@link io.github.distlock.testsupport.ConcurrencyProbe},
 * {@link io.github.distlock.testsupport.FencedStore}).
 */
@NullMarked
package io.github.distlock.test;

import org.jspecify.annotations.NullMarked;
