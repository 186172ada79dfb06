/**
 * Connector admission: {@link io.zeocore.connections.admission.ConnectorAdmission} checks connector revisions,
 * connections and runtime request bodies in the reference's order and refuses with an
 * {@link io.zeocore.connections.admission.AdmissionCode}.
 */
@NullMarked
package io.zeocore.connections.admission;

import org.jspecify.annotations.NullMarked;
