/**
 * {@link io.github.distlock.relay.TcpRelay}: a loopback TCP relay that forwards, pauses,
 * drops and refuses connections and adds latency, for tests and benchmarks that break the
 * network between a client and its server. It needs nothing but the JDK.
 */
package io.github.distlock.relay;
