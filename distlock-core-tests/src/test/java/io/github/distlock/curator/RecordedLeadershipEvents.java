package io.github.distlock.curator;

import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;

/** A leadership listener that keeps every grant and revocation, in order. */
final class RecordedLeadershipEvents extends CopyOnWriteArrayList<Object> implements LeadershipListener {

	@Override
	public void granted(LeadershipGrantedEvent event) {
		add(event);
	}

	@Override
	public void revoked(LeadershipRevokedEvent event) {
		add(event);
	}

}
