package io.github.distlock.test.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.distlock.testsupport.ConcurrencyProbe;

/**
 * A small application for the kit's own tests: tickets sold under a lock per event.
 */
@SpringBootApplication
public class TicketApplication {

	/** The probe of the sales; a test may give several instances one probe of its own. */
	@Bean
	@ConditionalOnMissingBean
	ConcurrencyProbe ticketProbe() {
		return new ConcurrencyProbe("ticket sale");
	}

	/** Prints nothing; tests give the instances a double. */
	@Bean
	TicketPrinter ticketPrinter() {
		return (event) -> {
		};
	}

	@Bean
	TicketOffice ticketOffice(ConcurrencyProbe ticketProbe, TicketPrinter ticketPrinter) {
		return new TicketOffice(ticketProbe, ticketPrinter);
	}

}
