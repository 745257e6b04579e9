/**
 * The HTTP contract and its problem answers. A blocking module implements
 * {@link dev.colorbench.core.web.ColorStore} or {@link dev.colorbench.core.web.EncodedColorStore}, and
 * the core's controller serves it. Every error of every module, on MVC or WebFlux, becomes an RFC 9457
 * problem body, with a 503 when the store is away (see docs/contract.md and docs/failure-behaviour.md).
 */
package dev.colorbench.core.web;
