package io.github.distlock.benchmarks;

import org.apache.curator.framework.CuratorFramework;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import io.github.distlock.curator.CuratorLocks;

/**
 * The contender of a scenario on a recipe other than a plain mutex (read/write lock,
 * semaphore, multi-lock), each on its own session: the Curator recipe used by hand,
 * distlock's programmatic API, or distlock's annotations ({@link AnnotatedLocks}). The
 * peers have none of these recipes.
 */
@State(Scope.Benchmark)
public abstract class RecipeContender {

	@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME })
	public String contender = RawCuratorContender.NAME;

	private CuratorFramework client;

	private DistlockContender distlock;

	private AnnotationContender annotation;

	/** The annotated bean when the annotations are measured, else {@code null}. */
	AnnotatedLocks annotated;

	@Setup(Level.Trial)
	public void start() {
		switch (this.contender) {
			case RawCuratorContender.NAME -> {
				this.client = BenchmarkClients.start();
				startRaw(this.client);
			}
			case DistlockContender.NAME -> {
				this.distlock = new DistlockContender();
				startDistlock(this.distlock.locks());
			}
			case AnnotationContender.NAME -> {
				this.annotation = new AnnotationContender();
				this.annotated = this.annotation.annotated();
			}
			default -> throw new IllegalArgumentException("Unknown contender '" + this.contender + "'");
		}
	}

	/** Create the raw Curator recipe of the scenario on the given client. */
	abstract void startRaw(CuratorFramework client);

	/** Take what the scenario needs from distlock's API. */
	abstract void startDistlock(CuratorLocks locks);

	@TearDown(Level.Trial)
	public void stop() {
		if (this.client != null) {
			this.client.close();
		}
		if (this.distlock != null) {
			this.distlock.close();
		}
		if (this.annotation != null) {
			this.annotation.close();
		}
	}

}
