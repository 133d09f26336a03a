package io.github.distlock.test.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import io.github.distlock.test.ConcurrencyProbe;

/**
 * A small application for the kit's own tests: tickets sold under a lock per event.
 */
@SpringBootApplication
public class TicketApplication {

	@Bean
	ConcurrencyProbe ticketProbe() {
		return new ConcurrencyProbe("ticket sale");
	}

	@Bean
	TicketOffice ticketOffice(ConcurrencyProbe ticketProbe) {
		return new TicketOffice(ticketProbe);
	}

}
