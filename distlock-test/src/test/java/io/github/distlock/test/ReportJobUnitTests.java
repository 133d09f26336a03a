package io.github.distlock.test;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.NoLockHeldException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A plain unit test of a method that asserts its lock: no Spring, no ZooKeeper, the kit's
 * test mode lets {@code assertHeld()} pass.
 */
class ReportJobUnitTests {

	@BeforeEach
	void assertHeldPasses() {
		LockAssertions.makeAllAssertsPass(true);
	}

	@AfterEach
	void assertHeldFailsAgain() {
		LockAssertions.makeAllAssertsPass(false);
	}

	@Test
	void nightlyReportListsTheDay() {
		ReportJob job = new ReportJob();
		job.nightlyReport();
		assertThat(job.reports).containsExactly("daily");
	}

	@Test
	void outsideTheTestModeTheMethodRefusesToRunWithoutItsLock() {
		LockAssertions.makeAllAssertsPass(false);
		assertThatExceptionOfType(NoLockHeldException.class).isThrownBy(new ReportJob()::nightlyReport)
			.withMessageStartingWith("No distlock lock is held by ");
	}

	static class ReportJob {

		final List<String> reports = new ArrayList<>();

		@DistributedLock("jobs/nightly-report")
		void nightlyReport() {
			LockContext.current().assertHeld();
			this.reports.add("daily");
		}

	}

}
