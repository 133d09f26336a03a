package io.github.distlock.autoconfigure.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link EmbeddedZookeeperException} as Spring Boot's "APPLICATION FAILED TO
 * START" report, with the missing dependency or the taken port and the fix.
 */
class EmbeddedZookeeperFailureAnalyzer extends AbstractFailureAnalyzer<EmbeddedZookeeperException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, EmbeddedZookeeperException cause) {
		return new FailureAnalysis(cause.getDescription() + ".", cause.getAction(), cause);
	}

}
