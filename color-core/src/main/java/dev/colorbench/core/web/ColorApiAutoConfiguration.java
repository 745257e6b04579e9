package dev.colorbench.core.web;

import org.apache.catalina.core.StandardHost;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;

/**
 * The HTTP side of every pattern module: the contract served for a {@link ColorStore} or an
 * {@link EncodedColorStore}, and a problem body for every error it answers, with a fast 503 when the
 * module's store (Redis or the database) is away.
 */
@AutoConfiguration
public class ColorApiAutoConfiguration {

    @Bean
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnBean(ColorStore.class)
    ColorController colorController(ColorStore store) {
        return new ColorController(store);
    }

    @Bean
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnBean(EncodedColorStore.class)
    EncodedColorController encodedColorController(EncodedColorStore store) {
        return new EncodedColorController(store);
    }

    @Bean
    @ConditionalOnWebApplication
    UnexpectedErrorHandler unexpectedErrorHandler() {
        return new UnexpectedErrorHandler();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataAccessException.class)
    static class DataAccessConfiguration {

        @Bean
        StoreUnavailableHandler storeUnavailableHandler() {
            return new StoreUnavailableHandler();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ StandardHost.class, ConfigurableTomcatWebServerFactory.class })
    @ConditionalOnWebApplication(type = Type.SERVLET)
    static class TomcatConfiguration {

        /** Runs after Spring Boot's own Tomcat customizer, so that its error valve is replaced. */
        @Bean
        WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> problemBodiesForTomcatErrors() {
            return factory -> factory.addContextCustomizers(
                    context -> ProblemErrorReportValve.install((StandardHost) context.getParent()));
        }
    }
}
