<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
    <context>
        <name>ActivityDock</name>
        <message>
            <source>Activity</source>
            <translation>Actividad</translation>
        </message>
    </context>
    <context>
        <name>ActivityMenu</name>
        <message>
            <source>A&amp;ctivity</source>
            <translation>A&amp;ctividad</translation>
        </message>
        <message>
            <source>&amp;Activity panel</source>
            <translation>Panel de &amp;actividad</translation>
        </message>
        <message>
            <source>What each assistant and program changed: review and take back</source>
            <translation>Lo que cambió cada asistente y programa: revisar y revertir</translation>
        </message>
        <message>
            <source>Mark all &amp;reviewed</source>
            <translation>Marcar todo como &amp;revisado</translation>
        </message>
        <message>
            <source>What &amp;changed since…</source>
            <translation>Qué &amp;cambió desde…</translation>
        </message>
        <message>
            <source>Per entity, what was added, changed, ended and deleted since a date or since you last opened this graph</source>
            <translation>Por entidad, qué se añadió, cambió, terminó y borró desde una fecha o desde la última vez que abriste este grafo</translation>
        </message>
        <message>
            <source>reading the activity log</source>
            <translation>leer el registro de actividad</translation>
        </message>
        <message>
            <source>“{named}” is no longer in the graph (deleted since).</source>
            <translation>“{named}” ya no está en el grafo (se borró después).</translation>
        </message>
        <message>
            <source>The entity of that change is no longer in the graph.</source>
            <translation>La entidad de ese cambio ya no está en el grafo.</translation>
        </message>
        <message>
            <source>“{named}” is now “{name}”.</source>
            <translation>“{named}” ahora se llama “{name}”.</translation>
        </message>
        <message>
            <source>opening the entity</source>
            <translation>abrir la entidad</translation>
        </message>
        <message>
            <source>Assistants: {count} unreviewed</source>
            <translation>Asistentes: {count} sin revisar</translation>
        </message>
        <message numerus="yes">
            <source>%n held for review</source>
            <translation>
                <numerusform>%Ln retenida para revisar</numerusform>
                <numerusform>%Ln retenidas para revisar</numerusform>
            </translation>
        </message>
        <message>
            <source>Assistant changes not reviewed yet, and writes held because they looked like a credential: open the Activity panel (Ctrl+Shift+A)</source>
            <translation>Cambios de asistentes aún sin revisar, y escrituras retenidas porque parecían una credencial: abre el panel de Actividad (Ctrl+Mayús+A)</translation>
        </message>
        <message>
            <source>Assistant changes not reviewed yet: open the Activity panel (Ctrl+Shift+A)</source>
            <translation>Cambios de asistentes aún sin revisar: abre el panel de Actividad (Ctrl+Mayús+A)</translation>
        </message>
        <message>
            <source>revert of this session</source>
            <translation>reversión de esta sesión</translation>
        </message>
        <message>
            <source>revert of this change</source>
            <translation>reversión de este cambio</translation>
        </message>
        <message>
            <source>reading what the revert would take back</source>
            <translation>leer lo que la reversión desharía</translation>
        </message>
        <message>
            <source>Nothing to take back: it is as it was already.</source>
            <translation>Nada que deshacer: ya está como estaba.</translation>
        </message>
        <message>
            <source>revert of session {value}</source>
            <translation>reversión de la sesión {value}</translation>
        </message>
        <message>
            <source>revert of change </source>
            <translation>reversión del cambio </translation>
        </message>
        <message numerus="yes">
            <source>Reverted: %n pieces taken back (Ctrl+Z brings them back).</source>
            <translation>
                <numerusform>Revertido: %Ln elemento deshecho (Ctrl+Z lo recupera).</numerusform>
                <numerusform>Revertido: %Ln elementos deshechos (Ctrl+Z los recupera).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Reverted: %n pieces taken back, with the entity you had open (Ctrl+Z brings it back).</source>
            <translation>
                <numerusform>Revertido: %Ln elemento deshecho, junto con la entidad que tenías abierta (Ctrl+Z la recupera).</numerusform>
                <numerusform>Revertido: %Ln elementos deshechos, junto con la entidad que tenías abierta (Ctrl+Z la recupera).</numerusform>
            </translation>
        </message>
        <message>
            <source>Reverted; your unsaved edits are kept: saving applies only them.</source>
            <translation>Revertido; tus ediciones sin guardar se conservan: al guardar se aplican solo ellas.</translation>
        </message>
        <message>
            <source>Writing by “{client}” is paused; its reads still work.</source>
            <translation>La escritura de “{client}” está en pausa; sus lecturas siguen funcionando.</translation>
        </message>
        <message>
            <source>“{client}” may write again.</source>
            <translation>“{client}” puede volver a escribir.</translation>
        </message>
    </context>
    <context>
        <name>ActivityPanel</name>
        <message>
            <source>All kinds</source>
            <translation>Todos los tipos</translation>
        </message>
        <message>
            <source>Entities</source>
            <translation>Entidades</translation>
        </message>
        <message>
            <source>Observations</source>
            <translation>Observaciones</translation>
        </message>
        <message>
            <source>Relations</source>
            <translation>Relaciones</translation>
        </message>
        <message>
            <source>Reflections</source>
            <translation>Reflexiones</translation>
        </message>
        <message>
            <source>Aliases</source>
            <translation>Alias</translation>
        </message>
        <message>
            <source>, {unreviewed} unreviewed</source>
            <translation>, {unreviewed} sin revisar</translation>
        </message>
        <message numerus="yes">
            <source> · read %n entities</source>
            <translation>
                <numerusform> · leyó %Ln entidad</numerusform>
                <numerusform> · leyó %Ln entidades</numerusform>
            </translation>
        </message>
        <message>
            <source> · taken back by #{max}</source>
            <translation> · deshecho por #{max}</translation>
        </message>
        <message>
            <source> · all taken back</source>
            <translation> · todo deshecho</translation>
        </message>
        <message numerus="yes">
            <source> · %n taken back</source>
            <translation>
                <numerusform> · %Ln deshecho</numerusform>
                <numerusform> · %Ln deshechos</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n writes refused</source>
            <translation>
                <numerusform> · %Ln escritura rechazada</numerusform>
                <numerusform> · %Ln escrituras rechazadas</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n changes</source>
            <translation>
                <numerusform>%Ln cambio</numerusform>
                <numerusform>%Ln cambios</numerusform>
            </translation>
        </message>
        <message>
            <source>{origin} · {time}, {day} · {changes}{unreviewed}{taken}{no}{reads}</source>
            <translation>{origin} · {time}, {day} · {changes}{unreviewed}{taken}{no}{reads}</translation>
        </message>
        <message>
            <source>{who}{version} · {origin} · {time}, {day} · {changes}{unreviewed}{taken}{no}{reads}</source>
            <translation>{who}{version} · {origin} · {time}, {day} · {changes}{unreviewed}{taken}{no}{reads}</translation>
        </message>
        <message numerus="yes">
            <source>Refused %n writes ({why}), the last at {time} {day}; nothing of them was written.</source>
            <translation>
                <numerusform>Rechazada %Ln escritura ({why}), la última a las {time} del {day}; no se escribió nada de ella.</numerusform>
                <numerusform>Rechazadas %Ln escrituras ({why}), la última a las {time} del {day}; no se escribió nada de ellas.</numerusform>
            </translation>
        </message>
        <message>
            <source>It was told: “{said}”</source>
            <translation>Se le respondió: “{said}”</translation>
        </message>
        <message>
            <source>  (taken back by #{reverted_by})</source>
            <translation>  (deshecho por #{reverted_by})</translation>
        </message>
        <message>
            <source>Client</source>
            <translation>Cliente</translation>
        </message>
        <message>
            <source>Entity…</source>
            <translation>Entidad…</translation>
        </message>
        <message>
            <source>Entity filter</source>
            <translation>Filtro por entidad</translation>
        </message>
        <message>
            <source>Only the changes to entities with this name</source>
            <translation>Solo los cambios de las entidades con este nombre</translation>
        </message>
        <message>
            <source>Unreviewed only</source>
            <translation>Solo sin revisar</translation>
        </message>
        <message>
            <source>Sessions that only read</source>
            <translation>Sesiones que solo leyeron</translation>
        </message>
        <message>
            <source>Also list the sessions in which an assistant only read</source>
            <translation>Mostrar también las sesiones en las que un asistente solo leyó</translation>
        </message>
        <message>
            <source>Assistants may write</source>
            <translation>Los asistentes pueden escribir</translation>
        </message>
        <message>
            <source>Activity</source>
            <translation>Actividad</translation>
        </message>
        <message>
            <source>Mark reviewed</source>
            <translation>Marcar como revisado</translation>
        </message>
        <message>
            <source>Mark all reviewed</source>
            <translation>Marcar todo como revisado</translation>
        </message>
        <message>
            <source>Revert…</source>
            <translation>Revertir…</translation>
        </message>
        <message>
            <source>Pause this assistant</source>
            <translation>Pausar este asistente</translation>
        </message>
        <message>
            <source>Sessions</source>
            <translation>Sesiones</translation>
        </message>
        <message>
            <source>What changed since…</source>
            <translation>Qué cambió desde…</translation>
        </message>
        <message>
            <source>All clients</source>
            <translation>Todos los clientes</translation>
        </message>
        <message>
            <source>Assistants may not write now.</source>
            <translation>Los asistentes no pueden escribir ahora.</translation>
        </message>
        <message>
            <source>Paused: </source>
            <translation>En pausa: </translation>
        </message>
        <message>
            <source>{kept_past_retention} unreviewed assistant changes are older than the {keep_days}-day retention; they are kept until reviewed.</source>
            <translation>{kept_past_retention} cambios de asistentes sin revisar superan la retención de {keep_days} días; se conservan hasta que los revises.</translation>
        </message>
        <message>
            <source>No changes match.</source>
            <translation>Ningún cambio coincide.</translation>
        </message>
        <message>
            <source>No activity yet.</source>
            <translation>Todavía no hay actividad.</translation>
        </message>
        <message>
            <source>{call}
{who}, {at} UTC</source>
            <translation>{call}
{who}, {at} UTC</translation>
        </message>
        <message>
            <source>… older changes of this session: `limbic activity --client {who}`</source>
            <translation>… cambios más antiguos de esta sesión: `limbic activity --client {who}`</translation>
        </message>
        <message>
            <source>Already taken back (its row says by which change)</source>
            <translation>Ya deshecho (su fila dice por qué cambio)</translation>
        </message>
        <message>
            <source>Revert this session…</source>
            <translation>Revertir esta sesión…</translation>
        </message>
        <message>
            <source>Revert this change…</source>
            <translation>Revertir este cambio…</translation>
        </message>
        <message>
            <source>Resume “{client}”</source>
            <translation>Reanudar “{client}”</translation>
        </message>
    </context>
    <context>
        <name>ActivityWords</name>
        <message>
            <source>added observations</source>
            <translation>añadió observaciones</translation>
        </message>
        <message>
            <source>created entities</source>
            <translation>creó entidades</translation>
        </message>
        <message>
            <source>related entities</source>
            <translation>relacionó entidades</translation>
        </message>
        <message>
            <source>deleted entities</source>
            <translation>borró entidades</translation>
        </message>
        <message>
            <source>removed observations</source>
            <translation>quitó observaciones</translation>
        </message>
        <message>
            <source>removed relations</source>
            <translation>quitó relaciones</translation>
        </message>
        <message>
            <source>import</source>
            <translation>importación</translation>
        </message>
        <message>
            <source>sync</source>
            <translation>sincronización</translation>
        </message>
        <message>
            <source>saved in the editor</source>
            <translation>guardado en el editor</translation>
        </message>
        <message>
            <source>assistant</source>
            <translation>asistente</translation>
        </message>
        <message>
            <source>you, in Limbic</source>
            <translation>tú, en Limbic</translation>
        </message>
        <message>
            <source>command line</source>
            <translation>línea de comandos</translation>
        </message>
        <message>
            <source>paused</source>
            <translation>en pausa</translation>
        </message>
        <message>
            <source>assistants may not write</source>
            <translation>los asistentes no pueden escribir</translation>
        </message>
        <message>
            <source>outside its scope</source>
            <translation>fuera de su alcance</translation>
        </message>
        <message>
            <source>change</source>
            <translation>cambio</translation>
        </message>
        <message>
            <source>{device} (this device, in clock order again)</source>
            <translation>{device} (este dispositivo, de nuevo en el orden del reloj)</translation>
        </message>
        <message>
            <source>this device</source>
            <translation>este dispositivo</translation>
        </message>
        <message>
            <source>{device} (another device)</source>
            <translation>{device} (otro dispositivo)</translation>
        </message>
        <message>
            <source>a device</source>
            <translation>un dispositivo</translation>
        </message>
    </context>
    <context>
        <name>AliasBar</name>
        <message>
            <source>New alias</source>
            <translation>Nuevo alias</translation>
        </message>
        <message>
            <source>Another name this entity goes by (a nickname, an abbreviation, a merged-away name), added with Enter: the quick switcher, search and assistants find the entity by it</source>
            <translation>Otro nombre por el que se conoce esta entidad (un apodo, una abreviatura, un nombre fusionado), añadido con Intro: el selector rápido, la búsqueda y los asistentes encuentran la entidad por él</translation>
        </message>
        <message>
            <source>Remove the alias “{alias}” (Edit → Undo brings it back)</source>
            <translation>Quitar el alias “{alias}” (Editar → Deshacer lo recupera)</translation>
        </message>
        <message>
            <source>Remove alias {alias}</source>
            <translation>Quitar el alias {alias}</translation>
        </message>
    </context>
    <context>
        <name>AliasFlow</name>
        <message>
            <source>Changing an alias</source>
            <translation>Cambiar un alias</translation>
        </message>
        <message>
            <source>adding the alias</source>
            <translation>añadir el alias</translation>
        </message>
        <message>
            <source>removing the alias</source>
            <translation>quitar el alias</translation>
        </message>
        <message>
            <source>“{name}” was already an alias of this entity.</source>
            <translation>“{name}” ya era un alias de esta entidad.</translation>
        </message>
        <message>
            <source>“{name}” was already not an alias of this entity.</source>
            <translation>“{name}” ya no era un alias de esta entidad.</translation>
        </message>
        <message>
            <source>Added the alias “{name}”.</source>
            <translation>Alias “{name}” añadido.</translation>
        </message>
        <message>
            <source>Removed the alias “{name}”. Press Ctrl+Z to undo.</source>
            <translation>Alias “{name}” quitado. Pulsa Ctrl+Z para deshacer.</translation>
        </message>
    </context>
    <context>
        <name>Aliases</name>
        <message>
            <source>Add an alias</source>
            <translation>Añadir un alias</translation>
        </message>
        <message>
            <source>Save first</source>
            <translation>Guarda primero</translation>
        </message>
    </context>
    <context>
        <name>AliasesRow</name>
        <message>
            <source>none</source>
            <translation>ninguno</translation>
        </message>
    </context>
    <context>
        <name>App</name>
        <message>
            <source>no result</source>
            <translation>ningún resultado</translation>
        </message>
    </context>
    <context>
        <name>AssistantsDialog</name>
        <message>
            <source>Assistant</source>
            <translation>Asistente</translation>
        </message>
        <message>
            <source>Last seen (UTC)</source>
            <translation>Visto por última vez (UTC)</translation>
        </message>
        <message>
            <source>May read</source>
            <translation>Puede leer</translation>
        </message>
        <message>
            <source>May write</source>
            <translation>Puede escribir</translation>
        </message>
        <message>
            <source>Paused</source>
            <translation>En pausa</translation>
        </message>
        <message>
            <source>may read and write</source>
            <translation>puede leer y escribir</translation>
        </message>
        <message>
            <source>read only until I allow</source>
            <translation>solo lectura hasta que lo permita</translation>
        </message>
        <message>
            <source>nothing until I allow</source>
            <translation>nada hasta que lo permita</translation>
        </message>
        <message>
            <source>everything</source>
            <translation>todo</translation>
        </message>
        <message>
            <source>nothing</source>
            <translation>nada</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>Asistentes</translation>
        </message>
        <message>
            <source>What each assistant connected through limbic mcp may read and write. Entities marked private (Organise → Private to assistants, Ctrl+Shift+L) are never shown to any of them. Type “everything”, “nothing” or entity types separated by commas.</source>
            <translation>Lo que cada asistente conectado con limbic mcp puede leer y escribir. Las entidades privadas (Organizar → Privada para los asistentes, Ctrl+Shift+L) no se muestran a ninguno. Escribe “everything” (todo), “nothing” (nada) o tipos de entidad separados por comas.</translation>
        </message>
        <message>
            <source>Default for a new assistant</source>
            <translation>Lo que puede un asistente nuevo</translation>
        </message>
        <message>
            <source>A &amp;new assistant</source>
            <translation>Un asistente &amp;nuevo</translation>
        </message>
        <message>
            <source>Assistants and their scopes</source>
            <translation>Los asistentes y su alcance</translation>
        </message>
        <message>
            <source>When (UTC)</source>
            <translation>Cuándo (UTC)</translation>
        </message>
        <message>
            <source>Tool</source>
            <translation>Herramienta</translation>
        </message>
        <message>
            <source>Held because</source>
            <translation>Retenido porque</translation>
        </message>
        <message>
            <source>Writes held for review</source>
            <translation>Escrituras retenidas para revisar</translation>
        </message>
        <message>
            <source>&amp;Accept</source>
            <translation>&amp;Aceptar</translation>
        </message>
        <message>
            <source>Accept as &amp;private</source>
            <translation>Aceptar como &amp;privada</translation>
        </message>
        <message>
            <source>&amp;Discard</source>
            <translation>&amp;Descartar</translation>
        </message>
        <message>
            <source>Held for review: what an assistant sent that looks like a key, a password or a card number (never stored).</source>
            <translation>Retenido para revisar: lo que un asistente envió y parece una clave, una contraseña o un número de tarjeta (nunca se guarda).</translation>
        </message>
        <message>
            <source>not seen yet</source>
            <translation>aún no visto</translation>
        </message>
        <message>
            <source>The default applies until you give it its own</source>
            <translation>Se aplica lo predeterminado hasta que le des uno propio</translation>
        </message>
        <message>
            <source>saving what assistants may do</source>
            <translation>guardando lo que pueden hacer los asistentes</translation>
        </message>
        <message>
            <source>Saved: a running assistant follows at its next call.</source>
            <translation>Guardado: un asistente en marcha lo sigue en su próxima llamada.</translation>
        </message>
        <message>
            <source>Choose a held write first.</source>
            <translation>Elige primero una escritura retenida.</translation>
        </message>
        <message>
            <source>deciding on a held write</source>
            <translation>decidiendo sobre una escritura retenida</translation>
        </message>
    </context>
    <context>
        <name>BackupsDialog</name>
        <message>
            <source>taken by you</source>
            <translation>hecha por ti</translation>
        </message>
        <message>
            <source>before a restore</source>
            <translation>antes de una restauración</translation>
        </message>
        <message>
            <source>{size} MB</source>
            <translation>{size} MB</translation>
        </message>
        <message>
            <source>{size} KB</source>
            <translation>{size} KB</translation>
        </message>
        <message>
            <source>Restore from backup</source>
            <translation>Restaurar desde una copia de seguridad</translation>
        </message>
        <message>
            <source>Taken (local time)</source>
            <translation>Hecha (hora local)</translation>
        </message>
        <message>
            <source>Why</source>
            <translation>Motivo</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>Tamaño</translation>
        </message>
        <message>
            <source>Restoring replaces everything in {graph_name} with the chosen backup. The graph as it is now is backed up first, so a restore can itself be undone from this list.</source>
            <translation>Restaurar reemplaza todo el contenido de {graph_name} por la copia elegida. Antes se hace una copia del grafo tal como está, así que una restauración también se puede deshacer desde esta lista.</translation>
        </message>
        <message>
            <source>{graph_name} has no backups yet. Use File → Back up now to take one.</source>
            <translation>{graph_name} aún no tiene copias de seguridad. Usa Archivo → Hacer copia ahora para crear una.</translation>
        </message>
        <message>
            <source>Restore</source>
            <translation>Restaurar</translation>
        </message>
        <message>
            <source>Replace {graph_name} with the backup of {local}?
The graph as it is now is backed up first.</source>
            <translation>¿Reemplazar {graph_name} por la copia del {local}?
Antes se hace una copia del grafo tal como está.</translation>
        </message>
    </context>
    <context>
        <name>Browser</name>
        <message>
            <source>Name</source>
            <translation>Nombre</translation>
        </message>
        <message>
            <source>Last changed</source>
            <translation>Último cambio</translation>
        </message>
        <message>
            <source>Most used</source>
            <translation>Más usadas</translation>
        </message>
    </context>
    <context>
        <name>ChangeWords</name>
        <message>
            <source>created “{name}” ({type})</source>
            <translation>creó “{name}” ({type})</translation>
        </message>
        <message>
            <source>deleted “{name}”</source>
            <translation>borró “{name}”</translation>
        </message>
        <message>
            <source>renamed “{old}” → “{new}”</source>
            <translation>renombró “{old}” → “{new}”</translation>
        </message>
        <message>
            <source>type of “{name}”: {old} → {new}</source>
            <translation>tipo de “{name}”: {old} → {new}</translation>
        </message>
        <message>
            <source>status of “{name}”: {old} → {new}</source>
            <translation>estado de “{name}”: {old} → {new}</translation>
        </message>
        <message>
            <source>marked “{name}” private</source>
            <translation>marcó “{name}” como privada</translation>
        </message>
        <message>
            <source>“{name}” no longer private</source>
            <translation>“{name}” ya no es privada</translation>
        </message>
        <message>
            <source>changed “{name}”</source>
            <translation>cambió “{name}”</translation>
        </message>
        <message>
            <source>added to “{owner}”: “{text}”</source>
            <translation>añadió a “{owner}”: “{text}”</translation>
        </message>
        <message>
            <source>removed from “{owner}”: “{text}”</source>
            <translation>quitó de “{owner}”: “{text}”</translation>
        </message>
        <message>
            <source>superseded in “{owner}”: “{text}”</source>
            <translation>sustituyó en “{owner}”: “{text}”</translation>
        </message>
        <message>
            <source>brought back in “{owner}”: “{text}”</source>
            <translation>recuperó en “{owner}”: “{text}”</translation>
        </message>
        <message>
            <source>edited in “{owner}”: “{old}” → “{new}”</source>
            <translation>editó en “{owner}”: “{old}” → “{new}”</translation>
        </message>
        <message>
            <source>held in the world {period} in “{owner}”: “{text}”</source>
            <translation>vigente en el mundo {period} en “{owner}”: “{text}”</translation>
        </message>
        <message>
            <source>changed an observation of “{owner}”</source>
            <translation>cambió una observación de “{owner}”</translation>
        </message>
        <message>
            <source>related {arrow}</source>
            <translation>relacionó {arrow}</translation>
        </message>
        <message>
            <source>removed relation {arrow}</source>
            <translation>quitó la relación {arrow}</translation>
        </message>
        <message>
            <source>ended relation {arrow}</source>
            <translation>terminó la relación {arrow}</translation>
        </message>
        <message>
            <source>related again {arrow}</source>
            <translation>volvió a relacionar {arrow}</translation>
        </message>
        <message>
            <source>held in the world {period}: {arrow}</source>
            <translation>vigente en el mundo {period}: {arrow}</translation>
        </message>
        <message>
            <source>changed relation {arrow}</source>
            <translation>cambió la relación {arrow}</translation>
        </message>
        <message>
            <source>gave “{owner}” the alias “{alias}”</source>
            <translation>dio a “{owner}” el alias “{alias}”</translation>
        </message>
        <message>
            <source>removed the alias “{alias}” of “{owner}”</source>
            <translation>quitó el alias “{alias}” de “{owner}”</translation>
        </message>
        <message>
            <source>changed the alias “{alias}” of “{owner}”</source>
            <translation>cambió el alias “{alias}” de “{owner}”</translation>
        </message>
        <message>
            <source>added a reflection on “{owner}”</source>
            <translation>añadió una reflexión sobre “{owner}”</translation>
        </message>
        <message>
            <source>removed a reflection on “{owner}”</source>
            <translation>quitó una reflexión sobre “{owner}”</translation>
        </message>
        <message>
            <source>changed a reflection on “{owner}”</source>
            <translation>cambió una reflexión sobre “{owner}”</translation>
        </message>
        <message>
            <source>added a reflection</source>
            <translation>añadió una reflexión</translation>
        </message>
        <message>
            <source>removed a reflection</source>
            <translation>quitó una reflexión</translation>
        </message>
        <message>
            <source>changed a reflection</source>
            <translation>cambió una reflexión</translation>
        </message>
        <message>
            <source>from {start} until {until}</source>
            <translation>desde {start} hasta {until}</translation>
        </message>
        <message>
            <source>since {start}</source>
            <translation>desde {start}</translation>
        </message>
        <message>
            <source>until {until}</source>
            <translation>hasta {until}</translation>
        </message>
        <message>
            <source>at any time (no dates)</source>
            <translation>en cualquier momento (sin fechas)</translation>
        </message>
        <message>
            <source>{what} with {brought}</source>
            <translation>{what} con {brought}</translation>
        </message>
        <message>
            <source>{n} observation</source>
            <translation>{n} observación</translation>
        </message>
        <message>
            <source>{n} observations</source>
            <translation>{n} observaciones</translation>
        </message>
        <message>
            <source>{n} relation</source>
            <translation>{n} relación</translation>
        </message>
        <message>
            <source>{n} relations</source>
            <translation>{n} relaciones</translation>
        </message>
        <message>
            <source>{n} reflection</source>
            <translation>{n} reflexión</translation>
        </message>
        <message>
            <source>{n} reflections</source>
            <translation>{n} reflexiones</translation>
        </message>
        <message>
            <source>{n} alias</source>
            <translation>{n} alias</translation>
        </message>
        <message>
            <source>{n} aliases</source>
            <translation>{n} alias</translation>
        </message>
        <message>
            <source>took back change {ids}:</source>
            <translation>deshizo el cambio {ids}:</translation>
        </message>
        <message>
            <source>no visible change</source>
            <translation>ningún cambio visible</translation>
        </message>
        <message>
            <source>{text}; and {n} more</source>
            <translation>{text}; y {n} más</translation>
        </message>
    </context>
    <context>
        <name>ChangesSince</name>
        <message>
            <source>ended:</source>
            <translation>terminada:</translation>
        </message>
        <message>
            <source>changed:</source>
            <translation>cambiada:</translation>
        </message>
        <message>
            <source>renamed</source>
            <translation>renombrada</translation>
        </message>
        <message>
            <source>type</source>
            <translation>tipo</translation>
        </message>
        <message>
            <source>status</source>
            <translation>estado</translation>
        </message>
        <message>
            <source>relation </source>
            <translation>relación </translation>
        </message>
        <message>
            <source>reflection </source>
            <translation>reflexión </translation>
        </message>
        <message>
            <source>added</source>
            <translation>añadida</translation>
        </message>
        <message>
            <source>deleted</source>
            <translation>borrada</translation>
        </message>
        <message>
            <source>no dates</source>
            <translation>sin fechas</translation>
        </message>
        <message>
            <source>{start} to {until}</source>
            <translation>del {start} al {until}</translation>
        </message>
        <message>
            <source>since {start}</source>
            <translation>desde {start}</translation>
        </message>
        <message>
            <source>until {until}</source>
            <translation>hasta {until}</translation>
        </message>
        <message>
            <source>edited: “{before}” → “{after}”</source>
            <translation>editada: “{before}” → “{after}”</translation>
        </message>
        <message>
            <source>dates: {what}{text} — {now}</source>
            <translation>fechas: {what}{text} — {now}</translation>
        </message>
        <message>
            <source> (was {was})</source>
            <translation> (antes: {was})</translation>
        </message>
        <message>
            <source>superseded: {text}</source>
            <translation>sustituida: {text}</translation>
        </message>
        <message numerus="yes">
            <source>{entity} — %n changes</source>
            <translation>
                <numerusform>{entity} — %Ln cambio</numerusform>
                <numerusform>{entity} — %Ln cambios</numerusform>
            </translation>
        </message>
        <message>
            <source>What changed since this graph was last opened here, {when_words}</source>
            <translation>Qué cambió desde la última vez que se abrió este grafo aquí, {when_words}</translation>
        </message>
        <message>
            <source>This graph was not opened here before</source>
            <translation>Este grafo no se había abierto aquí antes</translation>
        </message>
        <message>
            <source>Since {typed}</source>
            <translation>Desde {typed}</translation>
        </message>
        <message>
            <source>Since you last opened it ({when_words})</source>
            <translation>Desde la última vez que lo abriste ({when_words})</translation>
        </message>
        <message>
            <source>Since the last opening</source>
            <translation>Desde la última apertura</translation>
        </message>
        <message>
            <source>reading what changed</source>
            <translation>leer qué cambió</translation>
        </message>
    </context>
    <context>
        <name>ChangesSinceView</name>
        <message>
            <source>2026-03-01, “last week”, “en marzo”…</source>
            <translation>2026-03-01, “la semana pasada”, “en marzo”…</translation>
        </message>
        <message>
            <source>Since</source>
            <translation>Desde</translation>
        </message>
        <message>
            <source>Since the day</source>
            <translation>Desde el día</translation>
        </message>
        <message>
            <source>Pick the day to start from</source>
            <translation>Elige el día desde el que empezar</translation>
        </message>
        <message>
            <source>Since I last opened it</source>
            <translation>Desde la última vez que lo abrí</translation>
        </message>
        <message>
            <source>What changed since the previous time this graph was opened here</source>
            <translation>Qué cambió desde la vez anterior que se abrió este grafo aquí</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>Mostrar</translation>
        </message>
        <message>
            <source>What changed</source>
            <translation>Qué cambió</translation>
        </message>
        <message>
            <source>Double-click or Enter on an entity to open it</source>
            <translation>Doble clic o Intro sobre una entidad para abrirla</translation>
        </message>
        <message>
            <source>&amp;Since</source>
            <translation>&amp;Desde</translation>
        </message>
        <message numerus="yes">
            <source>%n entities changed.</source>
            <translation>
                <numerusform>%Ln entidad cambiada.</numerusform>
                <numerusform>%Ln entidades cambiadas.</numerusform>
            </translation>
        </message>
        <message>
            <source>Nothing changed.</source>
            <translation>No cambió nada.</translation>
        </message>
        <message numerus="yes">
            <source>%n entities changed; the first {listed} by name are listed.</source>
            <translation>
                <numerusform>%Ln entidad cambiada; se listan las {listed} primeras por nombre.</numerusform>
                <numerusform>%Ln entidades cambiadas; se listan las {listed} primeras por nombre.</numerusform>
            </translation>
        </message>
        <message>
            <source>{value} was deleted: there is nothing to open (Edit → Undo or the Activity panel can bring it back).</source>
            <translation>{value} se borró: no hay nada que abrir (Editar → Deshacer o el panel de Actividad pueden recuperarla).</translation>
        </message>
    </context>
    <context>
        <name>CommandPalette</name>
        <message>
            <source>Run a command…</source>
            <translation>Ejecutar un comando…</translation>
        </message>
        <message>
            <source>Type to filter · Up/Down move · Enter runs · Esc closes</source>
            <translation>Escribe para filtrar · Arriba/Abajo para moverte · Intro ejecuta · Esc cierra</translation>
        </message>
        <message>
            <source>No command matches.</source>
            <translation>Ningún comando coincide.</translation>
        </message>
    </context>
    <context>
        <name>ConflictDialog</name>
        <message>
            <source>{what}: you changed the same things since</source>
            <translation>{what}: cambiaste lo mismo después</translation>
        </message>
        <message>
            <source>Nothing has been changed yet. Since then, you changed what the {what} would take back:</source>
            <translation>Todavía no se ha cambiado nada. Desde entonces, cambiaste lo que la {what} desharía:</translation>
        </message>
        <message>
            <source>{what}: {who} changed the same things since</source>
            <translation>{what}: {who} cambió lo mismo después</translation>
        </message>
        <message>
            <source>Nothing has been changed yet. Since then, {who} changed what the {what} would take back:</source>
            <translation>Todavía no se ha cambiado nada. Desde entonces, {who} cambió lo que la {what} desharía:</translation>
        </message>
        <message>
            <source>What</source>
            <translation>Qué</translation>
        </message>
        <message>
            <source>By</source>
            <translation>Quién</translation>
        </message>
        <message>
            <source>When</source>
            <translation>Cuándo</translation>
        </message>
        <message>
            <source>your work</source>
            <translation>tu trabajo</translation>
        </message>
        <message>
            <source>their work</source>
            <translation>su trabajo</translation>
        </message>
        <message>
            <source>Keep {work} and take back only the rest, or leave everything as it is.</source>
            <translation>Conserva {work} y deshaz solo el resto, o deja todo como está.</translation>
        </message>
        <message>
            <source>Restore into the existing entity</source>
            <translation>Restaurar en la entidad existente</translation>
        </message>
        <message>
            <source>Leave everything as it is</source>
            <translation>Dejar todo como está</translation>
        </message>
    </context>
    <context>
        <name>ConflictsView</name>
        <message>
            <source>Keep this device's</source>
            <translation>Conservar el de este dispositivo</translation>
        </message>
        <message>
            <source>Keep the other's</source>
            <translation>Conservar el del otro</translation>
        </message>
        <message>
            <source>Keep both</source>
            <translation>Conservar ambos</translation>
        </message>
        <message>
            <source>Keep {their}'s</source>
            <translation>Conservar el de {their}</translation>
        </message>
        <message>
            <source>let it go</source>
            <translation>dejarlo estar</translation>
        </message>
        <message>
            <source>delete it again</source>
            <translation>volver a borrarlo</translation>
        </message>
        <message>
            <source>keep it</source>
            <translation>conservarlo</translation>
        </message>
        <message>
            <source>the other device</source>
            <translation>el otro dispositivo</translation>
        </message>
        <message>
            <source>keep both texts</source>
            <translation>conservar ambos textos</translation>
        </message>
        <message>
            <source>keep this device's value</source>
            <translation>conservar el valor de este dispositivo</translation>
        </message>
        <message>
            <source>keep {their}'s value</source>
            <translation>conservar el valor de {their}</translation>
        </message>
        <message>
            <source>on this device</source>
            <translation>en este dispositivo</translation>
        </message>
        <message>
            <source>on {value}</source>
            <translation>en {value}</translation>
        </message>
        <message>
            <source>Deleted {where}.</source>
            <translation>Borrado {where}.</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Nombre</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Tipo</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Estado</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>Texto</translation>
        </message>
        <message>
            <source>Other name</source>
            <translation>Otro nombre</translation>
        </message>
        <message>
            <source>Context</source>
            <translation>Contexto</translation>
        </message>
        <message>
            <source>Mood</source>
            <translation>Ánimo</translation>
        </message>
        <message>
            <source>Valid from</source>
            <translation>Válido desde</translation>
        </message>
        <message>
            <source>Valid until</source>
            <translation>Válido hasta</translation>
        </message>
        <message>
            <source>Ended</source>
            <translation>Terminada</translation>
        </message>
        <message>
            <source>Observations</source>
            <translation>Observaciones</translation>
        </message>
        <message>
            <source>Written where the deletion did not see it</source>
            <translation>Escrito sin que el borrado lo viera</translation>
        </message>
        <message>
            <source>Entity</source>
            <translation>Entidad</translation>
        </message>
        <message>
            <source>active</source>
            <translation>activa</translation>
        </message>
        <message>
            <source>paused</source>
            <translation>en pausa</translation>
        </message>
        <message>
            <source>done</source>
            <translation>hecha</translation>
        </message>
        <message>
            <source>archived</source>
            <translation>archivada</translation>
        </message>
        <message>
            <source>An observation of “{name}”</source>
            <translation>Una observación de “{name}”</translation>
        </message>
        <message>
            <source>A relation of “{name}”</source>
            <translation>Una relación de “{name}”</translation>
        </message>
        <message>
            <source>A reflection on “{name}”</source>
            <translation>Una reflexión sobre “{name}”</translation>
        </message>
        <message>
            <source>Another name of “{name}”</source>
            <translation>Otro nombre de “{name}”</translation>
        </message>
        <message>
            <source>{what}: {field} changed on both devices: “{mine}” here, “{theirs}” on {their}</source>
            <translation>{what}: {field} cambiado en los dos dispositivos: “{mine}” aquí, “{theirs}” en {their}</translation>
        </message>
        <message>
            <source>{what}: renamed onto a name another entity holds: “{mine}” here, “{theirs}” on {their}</source>
            <translation>{what}: renombrada con un nombre que ya tiene otra entidad: “{mine}” aquí, “{theirs}” en {their}</translation>
        </message>
        <message>
            <source>{what}: chosen differently here and on {their}: “{mine}” here, “{theirs}” there</source>
            <translation>{what}: elegido distinto aquí y en {their}: “{mine}” aquí, “{theirs}” allí</translation>
        </message>
        <message>
            <source>{what}: replaced by a newer text while {their} edited it: “{mine}” here, “{theirs}” on {their}</source>
            <translation>{what}: sustituida por un texto más nuevo mientras {their} la editaba: “{mine}” aquí, “{theirs}” en {their}</translation>
        </message>
        <message>
            <source>{what}: deleted on {their}, but changed here; delete it again?</source>
            <translation>{what}: borrada en {their}, pero cambiada aquí; ¿volver a borrarla?</translation>
        </message>
        <message>
            <source>{what}: deleted here, but {their} changed it meanwhile; delete it again?</source>
            <translation>{what}: borrada aquí, pero {their} la cambió mientras tanto; ¿volver a borrarla?</translation>
        </message>
        <message>
            <source>{what}: changed on {their}, but it is nowhere here</source>
            <translation>{what}: cambiada en {their}, pero aquí no está</translation>
        </message>
        <message>
            <source>{what}: {field} changed on {made} and on {their}: “{mine}” on {made}, “{theirs}” on {their}</source>
            <translation>{what}: {field} cambiado en {made} y en {their}: “{mine}” en {made}, “{theirs}” en {their}</translation>
        </message>
        <message>
            <source>{what}: deleted on {their}, but changed on {made}; delete it again?</source>
            <translation>{what}: borrada en {their}, pero cambiada en {made}; ¿volver a borrarla?</translation>
        </message>
        <message>
            <source>(deleted or absent)</source>
            <translation>(borrado o ausente)</translation>
        </message>
        <message>
            <source>Private: kept from every assistant</source>
            <translation>Privada: ningún asistente la ve</translation>
        </message>
        <message>
            <source>Sync conflicts</source>
            <translation>Conflictos de sincronización</translation>
        </message>
        <message>
            <source>Conflicts</source>
            <translation>Conflictos</translation>
        </message>
        <message>
            <source>No conflicts: every device agrees.</source>
            <translation>Sin conflictos: todos los dispositivos coinciden.</translation>
        </message>
        <message>
            <source>Mine</source>
            <translation>Mío</translation>
        </message>
        <message>
            <source>Theirs</source>
            <translation>Suyo</translation>
        </message>
        <message>
            <source>My value</source>
            <translation>Mi valor</translation>
        </message>
        <message>
            <source>Their value</source>
            <translation>Su valor</translation>
        </message>
        <message>
            <source>Open the entity  (Enter)</source>
            <translation>Abrir la entidad  (Intro)</translation>
        </message>
        <message>
            <source>Met on {at}; the graph holds mine until you choose.</source>
            <translation>Detectado el {at}; el grafo conserva el mío hasta que elijas.</translation>
        </message>
        <message>
            <source>Met on {at}; the graph holds theirs until you choose.</source>
            <translation>Detectado el {at}; el grafo conserva el suyo hasta que elijas.</translation>
        </message>
        <message>
            <source>Mine (this device, made on {device})</source>
            <translation>Mío (este dispositivo, hecho en {device})</translation>
        </message>
        <message>
            <source>Mine (this device)</source>
            <translation>Mío (este dispositivo)</translation>
        </message>
        <message>
            <source>  — kept now</source>
            <translation>  — conservado ahora</translation>
        </message>
        <message>
            <source>Theirs ({their_device})</source>
            <translation>Suyo ({their_device})</translation>
        </message>
    </context>
    <context>
        <name>Connection</name>
        <message>
            <source>Something went wrong while {what} ({name}); the details are in the log file.</source>
            <translation>Algo falló al {what} ({name}); los detalles están en el archivo de registro.</translation>
        </message>
    </context>
    <context>
        <name>CreateTarget</name>
        <message>
            <source>Generic</source>
            <translation>Genérica</translation>
        </message>
    </context>
    <context>
        <name>CreateTargetDialog</name>
        <message>
            <source>New entity</source>
            <translation>Nueva entidad</translation>
        </message>
        <message>
            <source>There is no entity named “{name}” yet. Create it, with this type, and relate to it?</source>
            <translation>Todavía no hay ninguna entidad llamada “{name}”. ¿Crearla, con este tipo, y relacionarla?</translation>
        </message>
        <message>
            <source>T&amp;ype</source>
            <translation>T&amp;ipo</translation>
        </message>
        <message>
            <source>Create and relate</source>
            <translation>Crear y relacionar</translation>
        </message>
        <message>
            <source>Correct the name</source>
            <translation>Corregir el nombre</translation>
        </message>
    </context>
    <context>
        <name>CsvPreviewDialog</name>
        <message>
            <source>Import {name}?</source>
            <translation>¿Importar {name}?</translation>
        </message>
        <message>
            <source>{name} cannot be imported</source>
            <translation>{name} no se puede importar</translation>
        </message>
        <message>
            <source> (the first {n_rows} shown)</source>
            <translation> (se muestran las primeras {n_rows})</translation>
        </message>
        <message>
            <source> of {kind}</source>
            <translation> de {kind}</translation>
        </message>
        <message>
            <source>, and no column maps to a name</source>
            <translation>, y ninguna columna corresponde a un nombre</translation>
        </message>
        <message numerus="yes">
            <source>%n rows</source>
            <translation>
                <numerusform>%Ln fila</numerusform>
                <numerusform>%Ln filas</numerusform>
            </translation>
        </message>
        <message>
            <source>Columns read: {used}.</source>
            <translation>Columnas leídas: {used}.</translation>
        </message>
        <message>
            <source>&lt;br&gt;&lt;b&gt;Ignored:&lt;/b&gt; {join} (no part of the graph reads them).</source>
            <translation>&lt;br&gt;&lt;b&gt;Ignoradas:&lt;/b&gt; {join} (ninguna parte del grafo las lee).</translation>
        </message>
        <message>
            <source>Keep the ignored columns as observations (“column: value”)</source>
            <translation>Conservar las columnas ignoradas como observaciones (“columna: valor”)</translation>
        </message>
        <message>
            <source>Each ignored cell that is not empty becomes an observation of its row's entity</source>
            <translation>Cada celda ignorada que no esté vacía se convierte en una observación de la entidad de su fila</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>Importar</translation>
        </message>
        <message>
            <source>Ignored: no part of the graph reads this column</source>
            <translation>Ignorada: ninguna parte del grafo lee esta columna</translation>
        </message>
    </context>
    <context>
        <name>DateRange</name>
        <message>
            <source>Updated</source>
            <translation>Actualizada</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>Creada</translation>
        </message>
        <message>
            <source>{what} when</source>
            <translation>{what} cuándo</translation>
        </message>
        <message>
            <source>{what} from</source>
            <translation>{what} desde</translation>
        </message>
        <message>
            <source>{what} until</source>
            <translation>{what} hasta</translation>
        </message>
        <message>
            <source>last week, en marzo, 2026-03-01</source>
            <translation>la semana pasada, en marzo, 2026-03-01</translation>
        </message>
        <message>
            <source>{what} when, in words</source>
            <translation>{what} cuándo, en palabras</translation>
        </message>
    </context>
    <context>
        <name>DatesDialog</name>
        <message>
            <source>When it held</source>
            <translation>Cuándo fue cierto</translation>
        </message>
        <message>
            <source>When did this hold in the world?
{what}</source>
            <translation>¿Cuándo fue esto cierto en el mundo?
{what}</translation>
        </message>
        <message>
            <source>&amp;Since</source>
            <translation>&amp;Desde</translation>
        </message>
        <message>
            <source>&amp;Until</source>
            <translation>&amp;Hasta</translation>
        </message>
        <message>
            <source>&amp;Clear dates</source>
            <translation>&amp;Borrar fechas</translation>
        </message>
    </context>
    <context>
        <name>Dialogs</name>
        <message>
            <source>Ctrl+O or Ctrl+P</source>
            <translation>Ctrl+O o Ctrl+P</translation>
        </message>
        <message>
            <source>Quick switcher: jump to an entity by name (typos are fine)</source>
            <translation>Selector rápido: salta a una entidad por su nombre (se admiten erratas)</translation>
        </message>
        <message>
            <source>Command palette: run any command by name</source>
            <translation>Paleta de comandos: ejecuta cualquier comando por su nombre</translation>
        </message>
        <message>
            <source>Ctrl+K or /</source>
            <translation>Ctrl+K o /</translation>
        </message>
        <message>
            <source>Focus the search field</source>
            <translation>Ir al campo de búsqueda</translation>
        </message>
        <message>
            <source>Search filters: relation type, status, updated and created dates</source>
            <translation>Filtros de búsqueda: tipo de relación, estado, fechas de actualización y creación</translation>
        </message>
        <message>
            <source>Up / Down</source>
            <translation>Arriba / Abajo</translation>
        </message>
        <message>
            <source>Move through the results</source>
            <translation>Moverse por los resultados</translation>
        </message>
        <message>
            <source>Enter</source>
            <translation>Intro</translation>
        </message>
        <message>
            <source>Open the selected result</source>
            <translation>Abrir el resultado seleccionado</translation>
        </message>
        <message>
            <source>Esc</source>
            <translation>Esc</translation>
        </message>
        <message>
            <source>Clear the search</source>
            <translation>Borrar la búsqueda</translation>
        </message>
        <message>
            <source>In the search field: delete the next word</source>
            <translation>En el campo de búsqueda: borrar la palabra siguiente</translation>
        </message>
        <message>
            <source>New entity</source>
            <translation>Nueva entidad</translation>
        </message>
        <message>
            <source>Save the entity</source>
            <translation>Guardar la entidad</translation>
        </message>
        <message>
            <source>Delete the entity (outside the search field)</source>
            <translation>Borrar la entidad (fuera del campo de búsqueda)</translation>
        </message>
        <message>
            <source>Undo the last change, named in the Edit menu</source>
            <translation>Deshacer el último cambio, nombrado en el menú Editar</translation>
        </message>
        <message>
            <source>Ctrl+Shift+Z or Ctrl+Y</source>
            <translation>Ctrl+Mayús+Z o Ctrl+Y</translation>
        </message>
        <message>
            <source>Redo what was undone</source>
            <translation>Rehacer lo deshecho</translation>
        </message>
        <message>
            <source>Back / Forward between opened entities</source>
            <translation>Atrás / Adelante entre las entidades abiertas</translation>
        </message>
        <message>
            <source>Graph: the open entity's neighbourhood / the whole graph</source>
            <translation>Grafo: el entorno de la entidad abierta / el grafo completo</translation>
        </message>
        <message>
            <source>Activity: what each assistant changed, to review or revert</source>
            <translation>Actividad: lo que cambió cada asistente, para revisarlo o revertirlo</translation>
        </message>
        <message>
            <source>In the graph</source>
            <translation>En el grafo</translation>
        </message>
        <message>
            <source>Drag or arrows pan, wheel or +/- zoom, 0 fits, click opens, double-click or Enter re-centres</source>
            <translation>Arrastrar o flechas para desplazar, rueda o +/- para ampliar, 0 para encajar, clic para abrir, doble clic o Intro para recentrar</translation>
        </message>
        <message>
            <source>Edit the selected observation</source>
            <translation>Editar la observación seleccionada</translation>
        </message>
        <message>
            <source>Keep an observation edit (Shift+Enter starts a new line, Esc drops it)</source>
            <translation>Conservar la edición de una observación (Mayús+Intro empieza una línea nueva, Esc la descarta)</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>Supr</translation>
        </message>
        <message>
            <source>Remove the selected observation or relation</source>
            <translation>Quitar la observación o relación seleccionada</translation>
        </message>
        <message>
            <source>Browse every entity by type, the pinned and the recently opened</source>
            <translation>Explorar todas las entidades por tipo, las fijadas y las abiertas hace poco</translation>
        </message>
        <message>
            <source>Ctrl+F in the browser</source>
            <translation>Ctrl+F en el explorador</translation>
        </message>
        <message>
            <source>Narrow the browser's list by words (its filters sit beside)</source>
            <translation>Acotar la lista del explorador por palabras (sus filtros están al lado)</translation>
        </message>
        <message>
            <source>Pin or unpin the entity</source>
            <translation>Fijar o soltar la entidad</translation>
        </message>
        <message>
            <source>Make the entity private to assistants, or show it to them again</source>
            <translation>Hacer la entidad privada para los asistentes, o mostrársela de nuevo</translation>
        </message>
        <message>
            <source>Merge the entity into another</source>
            <translation>Fusionar la entidad con otra</translation>
        </message>
        <message>
            <source>Memory health: duplicates, repeated observations, orphans</source>
            <translation>Salud de la memoria: duplicados, observaciones repetidas, huérfanas</translation>
        </message>
        <message>
            <source>Sync conflicts: what two devices changed alike, to choose what to keep</source>
            <translation>Conflictos de sincronización: lo que dos dispositivos cambiaron a la vez, para elegir qué conservar</translation>
        </message>
        <message>
            <source>Import a file / export JSONL</source>
            <translation>Importar un archivo / exportar JSONL</translation>
        </message>
        <message>
            <source>Import a folder of notes</source>
            <translation>Importar una carpeta de notas</translation>
        </message>
        <message>
            <source>Open another database</source>
            <translation>Abrir otra base de datos</translation>
        </message>
        <message>
            <source>New database</source>
            <translation>Nueva base de datos</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>Ajustes</translation>
        </message>
        <message>
            <source>Larger / smaller / normal text (remembered)</source>
            <translation>Texto más grande / más pequeño / normal (se recuerda)</translation>
        </message>
        <message>
            <source>Drop a file or folder</source>
            <translation>Soltar un archivo o una carpeta</translation>
        </message>
        <message>
            <source>Import it (JSONL, CSV, Markdown, a folder of notes, a memory .db)</source>
            <translation>Importarlo (JSONL, CSV, Markdown, una carpeta de notas, un .db de memoria)</translation>
        </message>
        <message>
            <source>This list of shortcuts</source>
            <translation>Esta lista de atajos</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>Salir</translation>
        </message>
    </context>
    <context>
        <name>DropImport</name>
        <message>
            <source>Drop one file or folder at a time; nothing was imported.</source>
            <translation>Suelta un archivo o una carpeta cada vez; no se importó nada.</translation>
        </message>
        <message>
            <source>“{name}” is not a file Limbic can read; nothing was imported.</source>
            <translation>“{name}” no es un archivo que Limbic pueda leer; no se importó nada.</translation>
        </message>
        <message>
            <source>Limbic imports memory JSONL, CSV, Markdown, a folder of notes or a memory .db; “{name}” is none of these, so nothing was imported.</source>
            <translation>Limbic importa JSONL de memoria, CSV, Markdown, una carpeta de notas o un .db de memoria; “{name}” no es ninguno de ellos, así que no se importó nada.</translation>
        </message>
        <message>
            <source>Drop to import “{name}”.</source>
            <translation>Suelta para importar “{name}”.</translation>
        </message>
        <message>
            <source>The file is open read-only; nothing was imported.</source>
            <translation>El archivo está abierto en solo lectura; no se importó nada.</translation>
        </message>
        <message>
            <source>No graph is open to import into; nothing was imported.</source>
            <translation>No hay ningún grafo abierto en el que importar; no se importó nada.</translation>
        </message>
        <message>
            <source>Importing</source>
            <translation>Importando</translation>
        </message>
    </context>
    <context>
        <name>EngineWorker</name>
        <message>
            <source>preparing the vectors</source>
            <translation>preparar los vectores</translation>
        </message>
        <message numerus="yes">
            <source>Embedding %n entities</source>
            <translation>
                <numerusform>Calculando el vector de %Ln entidad</numerusform>
                <numerusform>Calculando los vectores de %Ln entidades</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityBrowser</name>
        <message>
            <source>Browse entities</source>
            <translation>Explorar entidades</translation>
        </message>
        <message>
            <source>Entity types</source>
            <translation>Tipos de entidad</translation>
        </message>
        <message>
            <source>Sort by</source>
            <translation>Ordenar por</translation>
        </message>
        <message>
            <source>Entities</source>
            <translation>Entidades</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Nombre</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Tipo</translation>
        </message>
        <message>
            <source>Last changed (UTC)</source>
            <translation>Último cambio (UTC)</translation>
        </message>
        <message>
            <source>Uses</source>
            <translation>Usos</translation>
        </message>
        <message>
            <source>Filter by words in the name or observations  (Ctrl+F)</source>
            <translation>Filtrar por palabras del nombre o de las observaciones  (Ctrl+F)</translation>
        </message>
        <message>
            <source>Filter by words</source>
            <translation>Filtrar por palabras</translation>
        </message>
        <message>
            <source>Sort by:</source>
            <translation>Ordenar por:</translation>
        </message>
        <message>
            <source>Up/Down pick a type · Tab to the list · Enter opens · Ctrl+F words · Alt+1/2/3 sort · Esc closes</source>
            <translation>Arriba/Abajo elige un tipo · Tab va a la lista · Intro abre · Ctrl+F palabras · Alt+1/2/3 ordena · Esc cierra</translation>
        </message>
        <message>
            <source>All types ({total})</source>
            <translation>Todos los tipos ({total})</translation>
        </message>
        <message>
            <source>Pinned ({pinned})</source>
            <translation>Fijadas ({pinned})</translation>
        </message>
        <message>
            <source>Recently opened ({recent})</source>
            <translation>Abiertas hace poco ({recent})</translation>
        </message>
        <message>
            <source>By type</source>
            <translation>Por tipo</translation>
        </message>
        <message numerus="yes">
            <source>%n entities match</source>
            <translation>
                <numerusform>%Ln entidad coincide</numerusform>
                <numerusform>%Ln entidades coinciden</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entidad</numerusform>
                <numerusform>%Ln entidades</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityEditor</name>
        <message>
            <source>Open a search result (Enter) or create a new entity (Ctrl+N).</source>
            <translation>Abre un resultado de búsqueda (Intro) o crea una entidad nueva (Ctrl+N).</translation>
        </message>
        <message>
            <source>The entity's unique name</source>
            <translation>El nombre único de la entidad</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>Nombre</translation>
        </message>
        <message>
            <source>The entity's type (free text)</source>
            <translation>El tipo de la entidad (texto libre)</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>Tipo</translation>
        </message>
        <message>
            <source>&amp;Name</source>
            <translation>&amp;Nombre</translation>
        </message>
        <message>
            <source>T&amp;ype</source>
            <translation>T&amp;ipo</translation>
        </message>
        <message>
            <source>Also &amp;known as</source>
            <translation>También &amp;conocida como</translation>
        </message>
        <message>
            <source>Stat&amp;us</source>
            <translation>Est&amp;ado</translation>
        </message>
        <message>
            <source>Double-click or F2 to edit (Enter keeps it), Delete to remove</source>
            <translation>Doble clic o F2 para editar (Intro la conserva), Supr para quitar</translation>
        </message>
        <message>
            <source>Add an observation and press Enter</source>
            <translation>Añade una observación y pulsa Intro</translation>
        </message>
        <message>
            <source>&amp;Add</source>
            <translation>&amp;Añadir</translation>
        </message>
        <message>
            <source>Add this observation</source>
            <translation>Añadir esta observación</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>Quitar</translation>
        </message>
        <message>
            <source>Remove the selected observation (Delete)</source>
            <translation>Quitar la observación seleccionada (Supr)</translation>
        </message>
        <message>
            <source>Observations</source>
            <translation>Observaciones</translation>
        </message>
        <message>
            <source>Enter or double-click to open the target</source>
            <translation>Intro o doble clic para abrir el destino</translation>
        </message>
        <message>
            <source>Enter or double-click to open the source</source>
            <translation>Intro o doble clic para abrir el origen</translation>
        </message>
        <message>
            <source>Outgoing relations</source>
            <translation>Relaciones salientes</translation>
        </message>
        <message>
            <source>Incoming relations</source>
            <translation>Relaciones entrantes</translation>
        </message>
        <message>
            <source>relation type</source>
            <translation>tipo de relación</translation>
        </message>
        <message>
            <source>target entity</source>
            <translation>entidad de destino</translation>
        </message>
        <message>
            <source>New relation's type</source>
            <translation>Tipo de la relación nueva</translation>
        </message>
        <message>
            <source>New relation's target entity</source>
            <translation>Entidad de destino de la relación nueva</translation>
        </message>
        <message>
            <source>Names and aliases complete as you type; Enter adds the relation</source>
            <translation>Los nombres y alias se completan mientras escribes; Intro añade la relación</translation>
        </message>
        <message>
            <source>Add &amp;relation</source>
            <translation>Añadir &amp;relación</translation>
        </message>
        <message>
            <source>Relate this entity to the target</source>
            <translation>Relacionar esta entidad con el destino</translation>
        </message>
        <message>
            <source>Remove the selected relation (Delete)</source>
            <translation>Quitar la relación seleccionada (Supr)</translation>
        </message>
        <message>
            <source>Relations</source>
            <translation>Relaciones</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>&amp;Guardar</translation>
        </message>
        <message>
            <source>Save the changes (Ctrl+S)</source>
            <translation>Guardar los cambios (Ctrl+S)</translation>
        </message>
        <message>
            <source>Re&amp;vert</source>
            <translation>Desc&amp;artar</translation>
        </message>
        <message>
            <source>Drop the unsaved changes</source>
            <translation>Descartar los cambios sin guardar</translation>
        </message>
        <message>
            <source>&amp;Delete…</source>
            <translation>&amp;Borrar…</translation>
        </message>
        <message>
            <source>Delete this entity (Ctrl+Delete)</source>
            <translation>Borrar esta entidad (Ctrl+Supr)</translation>
        </message>
        <message>
            <source>created {created_at} · updated {updated_at} UTC · id {id}</source>
            <translation>creada {created_at} · actualizada {updated_at} UTC · id {id}</translation>
        </message>
        <message>
            <source>Generic</source>
            <translation>Genérica</translation>
        </message>
        <message>
            <source>New entity: not saved yet</source>
            <translation>Entidad nueva: aún sin guardar</translation>
        </message>
    </context>
    <context>
        <name>EntityFlow</name>
        <message>
            <source>&amp;Back</source>
            <translation>A&amp;trás</translation>
        </message>
        <message>
            <source>&amp;Forward</source>
            <translation>A&amp;delante</translation>
        </message>
        <message>
            <source>opening the entity</source>
            <translation>abrir la entidad</translation>
        </message>
        <message>
            <source>“{was}” was merged into “{name}”; its name is an alias of it now.</source>
            <translation>“{was}” se fusionó con “{name}”; ahora su nombre es un alias de ella.</translation>
        </message>
        <message>
            <source>Saving</source>
            <translation>Guardando</translation>
        </message>
        <message>
            <source>saving the entity</source>
            <translation>guardar la entidad</translation>
        </message>
        <message>
            <source>Saved.</source>
            <translation>Guardado.</translation>
        </message>
        <message>
            <source>reading who changed it</source>
            <translation>leer quién la cambió</translation>
        </message>
        <message>
            <source>Not saved: the conflict is waiting for your decision; your edits are still here.</source>
            <translation>Sin guardar: el conflicto espera tu decisión; tus ediciones siguen aquí.</translation>
        </message>
        <message>
            <source>you, elsewhere</source>
            <translation>tú, en otro sitio</translation>
        </message>
        <message>
            <source>another program</source>
            <translation>otro programa</translation>
        </message>
        <message>
            <source>you changed the same things elsewhere (in another Limbic window or on the command line)</source>
            <translation>cambiaste lo mismo en otro sitio (en otra ventana de Limbic o en la línea de comandos)</translation>
        </message>
        <message>
            <source>another program changed the same things</source>
            <translation>otro programa cambió lo mismo</translation>
        </message>
        <message>
            <source>Changed by you elsewhere</source>
            <translation>Cambiado por ti en otro sitio</translation>
        </message>
        <message>
            <source>Changed in another program</source>
            <translation>Cambiado en otro programa</translation>
        </message>
        <message>
            <source>While you edited “{name}”, {who}:

{lines}

Everything else from both sides is kept either way.</source>
            <translation>Mientras editabas “{name}”, {who}:

{lines}

Todo lo demás de ambos lados se conserva en cualquier caso.</translation>
        </message>
        <message>
            <source>Keep this version</source>
            <translation>Conservar esta versión</translation>
        </message>
        <message>
            <source>Keep my version</source>
            <translation>Conservar mi versión</translation>
        </message>
        <message>
            <source>Keep yours from elsewhere</source>
            <translation>Conservar la tuya de otro sitio</translation>
        </message>
        <message>
            <source>Keep theirs</source>
            <translation>Conservar la suya</translation>
        </message>
        <message>
            <source>Go back to editing</source>
            <translation>Volver a editar</translation>
        </message>
        <message>
            <source>Deleting</source>
            <translation>Borrando</translation>
        </message>
        <message>
            <source>deleting the entity</source>
            <translation>borrar la entidad</translation>
        </message>
        <message>
            <source>Delete entity</source>
            <translation>Borrar entidad</translation>
        </message>
        <message>
            <source>Delete “{name}” with its observations and relations?
You can undo this with Ctrl+Z.</source>
            <translation>¿Borrar “{name}” con sus observaciones y relaciones?
Puedes deshacerlo con Ctrl+Z.</translation>
        </message>
        <message>
            <source>Deleted “{name}”. Press Ctrl+Z to undo.</source>
            <translation>“{name}” borrada. Pulsa Ctrl+Z para deshacer.</translation>
        </message>
        <message>
            <source>changing the status</source>
            <translation>cambiar el estado</translation>
        </message>
        <message>
            <source>Creating an entity</source>
            <translation>Crear una entidad</translation>
        </message>
        <message>
            <source>Created “{name}” ({entity_type}); the relation to it is saved with this entity.</source>
            <translation>“{name}” ({entity_type}) creada; la relación con ella se guarda con esta entidad.</translation>
        </message>
        <message>
            <source>creating the entity</source>
            <translation>crear la entidad</translation>
        </message>
        <message>
            <source>This entity was deleted on {where}; saving will ask what to keep.</source>
            <translation>Esta entidad se borró en {where}; al guardar se te preguntará qué conservar.</translation>
        </message>
        <message>
            <source>This entity was deleted by another program; saving will ask what to keep.</source>
            <translation>Otro programa borró esta entidad; al guardar se te preguntará qué conservar.</translation>
        </message>
        <message>
            <source>This entity was changed on {where}; when you save, only your own changes are applied.</source>
            <translation>Esta entidad cambió en {where}; al guardar solo se aplican tus propios cambios.</translation>
        </message>
        <message>
            <source>This entity was changed by another program; when you save, only your own changes are applied.</source>
            <translation>Otro programa cambió esta entidad; al guardar solo se aplican tus propios cambios.</translation>
        </message>
        <message>
            <source>reading the entity</source>
            <translation>leer la entidad</translation>
        </message>
        <message>
            <source>The entity you had open was deleted on {where}.</source>
            <translation>La entidad que tenías abierta se borró en {where}.</translation>
        </message>
        <message>
            <source>The entity you had open was deleted by another program.</source>
            <translation>Otro programa borró la entidad que tenías abierta.</translation>
        </message>
        <message>
            <source>Another program changed this entity since you started editing; saving keeps both.</source>
            <translation>Otro programa cambió esta entidad desde que empezaste a editarla; al guardar se conservan ambos cambios.</translation>
        </message>
        <message numerus="yes">
            <source>%n new observations from {source} since you started editing; saving keeps them and your edits.</source>
            <translation>
                <numerusform>%Ln observación nueva de {source} desde que empezaste a editar; al guardar se conservan ella y tus ediciones.</numerusform>
                <numerusform>%Ln observaciones nuevas de {source} desde que empezaste a editar; al guardar se conservan ellas y tus ediciones.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityHistory</name>
        <message>
            <source>Active</source>
            <translation>Activa</translation>
        </message>
        <message>
            <source>Paused</source>
            <translation>En pausa</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>Hecha</translation>
        </message>
        <message>
            <source>Archived</source>
            <translation>Archivada</translation>
        </message>
    </context>
    <context>
        <name>EntityHistoryPanel</name>
        <message>
            <source>Show superseded observations</source>
            <translation>Mostrar las observaciones sustituidas</translation>
        </message>
        <message>
            <source>History and reflections</source>
            <translation>Historia y reflexiones</translation>
        </message>
        <message>
            <source>Timeline</source>
            <translation>Cronología</translation>
        </message>
        <message>
            <source>{content}
(superseded {superseded_at})</source>
            <translation>{content}
(sustituida {superseded_at})</translation>
        </message>
        <message>
            <source>{arrow} (ended {value})</source>
            <translation>{arrow} (terminó {value})</translation>
        </message>
        <message>
            <source> on {about}</source>
            <translation> sobre {about}</translation>
        </message>
        <message>
            <source>Read by {client} {count}× this week (last {value})</source>
            <translation>Leída por {client} {count}× esta semana (la última, {value})</translation>
        </message>
        <message>
            <source>Show superseded observations ({n_superseded})</source>
            <translation>Mostrar las observaciones sustituidas ({n_superseded})</translation>
        </message>
    </context>
    <context>
        <name>ExceptionDialog</name>
        <message>
            <source>Limbic hit an unexpected problem</source>
            <translation>Limbic encontró un problema inesperado</translation>
        </message>
        <message>
            <source>Something unexpected went wrong. Your data is safe: every change is saved in one step or not at all. If it happens again, please send the details below.</source>
            <translation>Algo inesperado falló. Tus datos están a salvo: cada cambio se guarda de una vez o no se guarda. Si vuelve a pasar, envía los detalles de abajo.</translation>
        </message>
        <message>
            <source>Copy details</source>
            <translation>Copiar los detalles</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>Cerrar</translation>
        </message>
    </context>
    <context>
        <name>Features</name>
        <message>
            <source>&amp;Go</source>
            <translation>&amp;Ir</translation>
        </message>
        <message>
            <source>&amp;Quick switcher…</source>
            <translation>&amp;Selector rápido…</translation>
        </message>
        <message>
            <source>Jump to an entity by name (typos are fine)</source>
            <translation>Saltar a una entidad por su nombre (se admiten erratas)</translation>
        </message>
        <message>
            <source>&amp;Command palette…</source>
            <translation>&amp;Paleta de comandos…</translation>
        </message>
        <message>
            <source>Run any command by name</source>
            <translation>Ejecutar cualquier comando por su nombre</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Ver</translation>
        </message>
    </context>
    <context>
        <name>FileMenu</name>
        <message>
            <source>Memory JSONL (*.jsonl *.json);;All files (*)</source>
            <translation>JSONL de memoria (*.jsonl *.json);;Todos los archivos (*)</translation>
        </message>
        <message>
            <source>Everything Limbic imports (*.jsonl *.json *.db *.sqlite *.sqlite3 *.csv);;Memory JSONL (*.jsonl *.json);;Memory engine database (*.db *.sqlite *.sqlite3);;CSV: entities.csv and relations.csv (*.csv);;All files (*)</source>
            <translation>Todo lo que Limbic importa (*.jsonl *.json *.db *.sqlite *.sqlite3 *.csv);;JSONL de memoria (*.jsonl *.json);;Base de datos del motor de memoria (*.db *.sqlite *.sqlite3);;CSV: entities.csv y relations.csv (*.csv);;Todos los archivos (*)</translation>
        </message>
        <message>
            <source>a folder</source>
            <translation>una carpeta</translation>
        </message>
        <message>
            <source>a memory JSONL file</source>
            <translation>un archivo JSONL de memoria</translation>
        </message>
        <message>
            <source>a CSV file</source>
            <translation>un archivo CSV</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;Archivo</translation>
        </message>
        <message>
            <source>&amp;New database…</source>
            <translation>&amp;Nueva base de datos…</translation>
        </message>
        <message>
            <source>&amp;Open database…</source>
            <translation>&amp;Abrir base de datos…</translation>
        </message>
        <message>
            <source>Open &amp;recent</source>
            <translation>Abrir &amp;reciente</translation>
        </message>
        <message>
            <source>&amp;Import…</source>
            <translation>&amp;Importar…</translation>
        </message>
        <message>
            <source>Import memory JSONL, a memory engine database or CSV</source>
            <translation>Importar JSONL de memoria, una base de datos del motor de memoria o CSV</translation>
        </message>
        <message>
            <source>Import a &amp;folder of notes…</source>
            <translation>Importar una &amp;carpeta de notas…</translation>
        </message>
        <message>
            <source>Import a folder of Markdown notes (an Obsidian vault) or CSV files</source>
            <translation>Importar una carpeta de notas Markdown (una bóveda de Obsidian) o archivos CSV</translation>
        </message>
        <message>
            <source>&amp;Export JSONL…</source>
            <translation>&amp;Exportar JSONL…</translation>
        </message>
        <message>
            <source>Export as &amp;Markdown…</source>
            <translation>Exportar como &amp;Markdown…</translation>
        </message>
        <message>
            <source>Export as &amp;CSV…</source>
            <translation>Exportar como CS&amp;V…</translation>
        </message>
        <message>
            <source>&amp;Back up now</source>
            <translation>Hacer c&amp;opia ahora</translation>
        </message>
        <message>
            <source>Copy the graph into its backup folder</source>
            <translation>Copiar el grafo en su carpeta de copias de seguridad</translation>
        </message>
        <message>
            <source>Restore from bac&amp;kup…</source>
            <translation>Restaurar desde una co&amp;pia…</translation>
        </message>
        <message>
            <source>Replace the graph with one of its backups, listed with their dates</source>
            <translation>Reemplazar el grafo por una de sus copias de seguridad, listadas con sus fechas</translation>
        </message>
        <message>
            <source>Load the &amp;sample graph</source>
            <translation>Cargar el grafo de &amp;ejemplo</translation>
        </message>
        <message>
            <source>S&amp;ync…</source>
            <translation>Sincroni&amp;zar…</translation>
        </message>
        <message>
            <source>Keep this graph the same on every device through a folder they all sync</source>
            <translation>Mantener este grafo igual en todos los dispositivos mediante una carpeta que todos sincronizan</translation>
        </message>
        <message>
            <source>Sync &amp;conflicts…</source>
            <translation>Con&amp;flictos de sincronización…</translation>
        </message>
        <message>
            <source>What two devices changed alike, to choose for each what to keep</source>
            <translation>Lo que dos dispositivos cambiaron a la vez, para elegir en cada caso qué conservar</translation>
        </message>
        <message>
            <source>Se&amp;ttings…</source>
            <translation>Aj&amp;ustes…</translation>
        </message>
        <message>
            <source>&amp;Assistants…</source>
            <translation>Asis&amp;tentes…</translation>
        </message>
        <message>
            <source>What each assistant may read and write; writes held for review</source>
            <translation>Lo que cada asistente puede leer y escribir; escrituras retenidas para revisar</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Salir</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>Ay&amp;uda</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>&amp;Atajos de teclado</translation>
        </message>
        <message>
            <source>&amp;About Limbic</source>
            <translation>Acerca &amp;de Limbic</translation>
        </message>
        <message>
            <source>Import a file</source>
            <translation>Importar un archivo</translation>
        </message>
        <message>
            <source>reading the CSV files</source>
            <translation>leer los archivos CSV</translation>
        </message>
        <message>
            <source>Imported {name}: {describe}</source>
            <translation>{name} importado: {describe}</translation>
        </message>
        <message>
            <source>Importing {name}</source>
            <translation>Importando {name}</translation>
        </message>
        <message>
            <source>{name} was not imported.</source>
            <translation>{name} no se importó.</translation>
        </message>
        <message>
            <source>Export memory JSONL</source>
            <translation>Exportar JSONL de memoria</translation>
        </message>
        <message>
            <source>{entities} and {relations}</source>
            <translation>{entities} y {relations}</translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entidad</numerusform>
                <numerusform>%Ln entidades</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relación</numerusform>
                <numerusform>%Ln relaciones</numerusform>
            </translation>
        </message>
        <message>
            <source>the graph</source>
            <translation>el grafo</translation>
        </message>
        <message>
            <source>Exported {what} to {path}.</source>
            <translation>Exportado {what} a {path}.</translation>
        </message>
        <message>
            <source>Exporting to {name}</source>
            <translation>Exportando a {name}</translation>
        </message>
        <message>
            <source>{problem}. Replace it with the export?</source>
            <translation>{problem}. ¿Reemplazarlo con la exportación?</translation>
        </message>
        <message>
            <source>Replace a file</source>
            <translation>Reemplazar un archivo</translation>
        </message>
        <message>
            <source>backing up</source>
            <translation>hacer la copia de seguridad</translation>
        </message>
        <message>
            <source>Backing up</source>
            <translation>Haciendo la copia de seguridad</translation>
        </message>
        <message>
            <source>listing the backups</source>
            <translation>listar las copias de seguridad</translation>
        </message>
        <message>
            <source>Restoring a backup</source>
            <translation>Restaurando una copia de seguridad</translation>
        </message>
        <message>
            <source>restoring the backup</source>
            <translation>restaurar la copia de seguridad</translation>
        </message>
        <message>
            <source>Restored the backup; the graph as it was is kept in {before}.</source>
            <translation>Copia restaurada; el grafo tal como estaba se guarda en {before}.</translation>
        </message>
        <message>
            <source>New database</source>
            <translation>Nueva base de datos</translation>
        </message>
        <message>
            <source>Limbic database (*.db)</source>
            <translation>Base de datos de Limbic (*.db)</translation>
        </message>
        <message>
            <source>{path} already exists; use File → Open database to open it.</source>
            <translation>{path} ya existe; usa Archivo → Abrir base de datos para abrirla.</translation>
        </message>
        <message>
            <source>Open database</source>
            <translation>Abrir base de datos</translation>
        </message>
        <message>
            <source>Limbic database (*.db);;All files (*)</source>
            <translation>Base de datos de Limbic (*.db);;Todos los archivos (*)</translation>
        </message>
        <message>
            <source>{name} is {kind}, not a Limbic graph. Import it into the open graph ({name2})?</source>
            <translation>{name} es {kind}, no un grafo de Limbic. ¿Importarlo en el grafo abierto ({name2})?</translation>
        </message>
        <message>
            <source>Not a graph file</source>
            <translation>No es un archivo de grafo</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>Importar</translation>
        </message>
        <message>
            <source>No other recent databases</source>
            <translation>No hay otras bases de datos recientes</translation>
        </message>
        <message>
            <source>Open a graph to see its assistants.</source>
            <translation>Abre un grafo para ver sus asistentes.</translation>
        </message>
        <message>
            <source>The window's language changes when Limbic starts again.</source>
            <translation>El idioma de la ventana cambia cuando Limbic vuelve a arrancar.</translation>
        </message>
        <message>
            <source>About Limbic</source>
            <translation>Acerca de Limbic</translation>
        </message>
        <message>
            <source>&lt;b&gt;Limbic {version}&lt;/b&gt;&lt;p&gt;A personal knowledge graph with local hybrid search: meaning and exact words, re-ranked by how you use the graph. Everything stays on this computer.&lt;/p&gt;</source>
            <translation>&lt;b&gt;Limbic {version}&lt;/b&gt;&lt;p&gt;Un grafo de conocimiento personal con búsqueda híbrida local: significado y palabras exactas, reordenados según cómo usas el grafo. Todo se queda en este ordenador.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Import a folder of Markdown notes (an Obsidian vault) or of CSV files</source>
            <translation>Importar una carpeta de notas Markdown (una bóveda de Obsidian) o de archivos CSV</translation>
        </message>
        <message>
            <source>Export as Markdown notes into a folder</source>
            <translation>Exportar como notas Markdown a una carpeta</translation>
        </message>
        <message>
            <source>Export as CSV files into a folder</source>
            <translation>Exportar como archivos CSV a una carpeta</translation>
        </message>
        <message>
            <source>{problem}. Write the notes into it anyway, beside what it holds?</source>
            <translation>{problem}. ¿Escribir las notas en ella de todos modos, junto a lo que contiene?</translation>
        </message>
        <message>
            <source>{problem}. Write the CSV files into it anyway, beside what it holds?</source>
            <translation>{problem}. ¿Escribir los archivos CSV en ella de todos modos, junto a lo que contiene?</translation>
        </message>
        <message>
            <source>Nothing was exported; {name} was left as it is.</source>
            <translation>No se exportó nada; {name} quedó como estaba.</translation>
        </message>
    </context>
    <context>
        <name>FilterBar</name>
        <message>
            <source>Any relation</source>
            <translation>Cualquier relación</translation>
        </message>
        <message>
            <source>Any status</source>
            <translation>Cualquier estado</translation>
        </message>
        <message>
            <source>active</source>
            <translation>activa</translation>
        </message>
        <message>
            <source>paused</source>
            <translation>en pausa</translation>
        </message>
        <message>
            <source>done</source>
            <translation>hecha</translation>
        </message>
        <message>
            <source>archived</source>
            <translation>archivada</translation>
        </message>
        <message>
            <source>Filters cleared: searching everything.</source>
            <translation>Filtros quitados: se busca en todo.</translation>
        </message>
        <message>
            <source>any time</source>
            <translation>en cualquier momento</translation>
        </message>
        <message>
            <source>today</source>
            <translation>hoy</translation>
        </message>
        <message>
            <source>in the last 7 days</source>
            <translation>en los últimos 7 días</translation>
        </message>
        <message>
            <source>in the last 30 days</source>
            <translation>en los últimos 30 días</translation>
        </message>
        <message>
            <source>in the last year</source>
            <translation>en el último año</translation>
        </message>
        <message>
            <source>between…</source>
            <translation>entre…</translation>
        </message>
        <message>
            <source>as you say it…</source>
            <translation>como lo digas…</translation>
        </message>
        <message>
            <source>Relation type filter</source>
            <translation>Filtro por tipo de relación</translation>
        </message>
        <message>
            <source>Only entities with an active relation of this type (either way)</source>
            <translation>Solo entidades con una relación activa de este tipo (en cualquier sentido)</translation>
        </message>
        <message>
            <source>Status filter</source>
            <translation>Filtro por estado</translation>
        </message>
        <message>
            <source>Clear filters</source>
            <translation>Quitar los filtros</translation>
        </message>
        <message>
            <source>Show everything again</source>
            <translation>Mostrar todo de nuevo</translation>
        </message>
        <message>
            <source>Relation</source>
            <translation>Relación</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Estado</translation>
        </message>
    </context>
    <context>
        <name>FilterLine</name>
        <message>
            <source>Active filters</source>
            <translation>Filtros activos</translation>
        </message>
        <message>
            <source>Filters on: {described}</source>
            <translation>Filtros puestos: {described}</translation>
        </message>
        <message>
            <source>&lt;b&gt;Filters on:&lt;/b&gt; {escape}</source>
            <translation>&lt;b&gt;Filtros puestos:&lt;/b&gt; {escape}</translation>
        </message>
        <message>
            <source> — &lt;a href='clear'&gt;Clear filters&lt;/a&gt;</source>
            <translation> — &lt;a href='clear'&gt;Quitar los filtros&lt;/a&gt;</translation>
        </message>
    </context>
    <context>
        <name>FilterWords</name>
        <message>
            <source>type {value}</source>
            <translation>tipo {value}</translation>
        </message>
        <message>
            <source>relation {value}</source>
            <translation>relación {value}</translation>
        </message>
        <message>
            <source>status {value}</source>
            <translation>estado {value}</translation>
        </message>
        <message>
            <source>words {value}</source>
            <translation>palabras {value}</translation>
        </message>
        <message>
            <source>updated {start} to {end}</source>
            <translation>actualizada del {start} al {end}</translation>
        </message>
        <message>
            <source>updated from {start}</source>
            <translation>actualizada desde el {start}</translation>
        </message>
        <message>
            <source>updated until {end}</source>
            <translation>actualizada hasta el {end}</translation>
        </message>
        <message>
            <source>created {start} to {end}</source>
            <translation>creada del {start} al {end}</translation>
        </message>
        <message>
            <source>created from {start}</source>
            <translation>creada desde el {start}</translation>
        </message>
        <message>
            <source>created until {end}</source>
            <translation>creada hasta el {end}</translation>
        </message>
        <message>
            <source>, </source>
            <translation>, </translation>
        </message>
    </context>
    <context>
        <name>GraphCanvas</name>
        <message>
            <source>Graph</source>
            <translation>Grafo</translation>
        </message>
        <message>
            <source>{value}: click to show them</source>
            <translation>{value}: haz clic para mostrarlas</translation>
        </message>
        <message>
            <source> · suggested by meaning, not linked</source>
            <translation> · sugerida por significado, sin relación</translation>
        </message>
        <message>
            <source> · gone since this date</source>
            <translation> · desaparecida desde esta fecha</translation>
        </message>
        <message>
            <source> · came after this date</source>
            <translation> · llegó después de esta fecha</translation>
        </message>
        <message numerus="yes">
            <source>{name} ({kind}) · %n relations{extra}</source>
            <translation>
                <numerusform>{name} ({kind}) · %Ln relación{extra}</numerusform>
                <numerusform>{name} ({kind}) · %Ln relaciones{extra}</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphDock</name>
        <message>
            <source>Graph</source>
            <translation>Grafo</translation>
        </message>
    </context>
    <context>
        <name>GraphExportsMixin</name>
        <message>
            <source>Export the whole graph</source>
            <translation>Exportar el grafo completo</translation>
        </message>
        <message>
            <source>GraphML (*.graphml)</source>
            <translation>GraphML (*.graphml)</translation>
        </message>
        <message numerus="yes">
            <source>Exported %n entities to {path}.</source>
            <translation>
                <numerusform>Exportada %Ln entidad a {path}.</numerusform>
                <numerusform>Exportadas %Ln entidades a {path}.</numerusform>
            </translation>
        </message>
        <message>
            <source>exporting the graph</source>
            <translation>exportar el grafo</translation>
        </message>
        <message>
            <source>Export the visible part</source>
            <translation>Exportar la parte visible</translation>
        </message>
        <message>
            <source>Saved the picture to {path}.</source>
            <translation>Imagen guardada en {path}.</translation>
        </message>
        <message>
            <source>saving the picture</source>
            <translation>guardar la imagen</translation>
        </message>
        <message>
            <source>Save the picture</source>
            <translation>Guardar la imagen</translation>
        </message>
        <message>
            <source>PNG image (*.png)</source>
            <translation>Imagen PNG (*.png)</translation>
        </message>
        <message>
            <source>SVG image (*.svg)</source>
            <translation>Imagen SVG (*.svg)</translation>
        </message>
    </context>
    <context>
        <name>GraphMenu</name>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Ver</translation>
        </message>
        <message>
            <source>&amp;Local graph</source>
            <translation>Grafo &amp;local</translation>
        </message>
        <message>
            <source>The open entity and its neighbours</source>
            <translation>La entidad abierta y sus vecinas</translation>
        </message>
        <message>
            <source>&amp;Whole graph</source>
            <translation>Grafo &amp;completo</translation>
        </message>
        <message>
            <source>Every entity and relation</source>
            <translation>Todas las entidades y relaciones</translation>
        </message>
    </context>
    <context>
        <name>GraphPanel</name>
        <message>
            <source>Local</source>
            <translation>Local</translation>
        </message>
        <message>
            <source>The open entity and its neighbours (Ctrl+G)</source>
            <translation>La entidad abierta y sus vecinas (Ctrl+G)</translation>
        </message>
        <message>
            <source>Whole graph</source>
            <translation>Grafo completo</translation>
        </message>
        <message>
            <source>Every entity and relation (Ctrl+Shift+G)</source>
            <translation>Todas las entidades y relaciones (Ctrl+Mayús+G)</translation>
        </message>
        <message>
            <source>Depth </source>
            <translation>Profundidad </translation>
        </message>
        <message>
            <source>Graph depth</source>
            <translation>Profundidad del grafo</translation>
        </message>
        <message>
            <source>How many relations away from the open entity the local graph reaches</source>
            <translation>A cuántas relaciones de la entidad abierta llega el grafo local</translation>
        </message>
        <message>
            <source>How many relations away from the centre</source>
            <translation>A cuántas relaciones del centro</translation>
        </message>
        <message>
            <source>Types</source>
            <translation>Tipos</translation>
        </message>
        <message>
            <source>Relations</source>
            <translation>Relaciones</translation>
        </message>
        <message>
            <source>Similar</source>
            <translation>Similares</translation>
        </message>
        <message>
            <source>Show entities close in meaning that have no relation to the centre</source>
            <translation>Mostrar entidades cercanas en significado que no tienen relación con el centro</translation>
        </message>
        <message>
            <source>Fit</source>
            <translation>Encajar</translation>
        </message>
        <message>
            <source>Show the whole picture (0)</source>
            <translation>Mostrar la imagen completa (0)</translation>
        </message>
        <message>
            <source>Re-layout</source>
            <translation>Redistribuir</translation>
        </message>
        <message>
            <source>Lay the whole graph out again from scratch</source>
            <translation>Volver a distribuir todo el grafo desde cero</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>Detener</translation>
        </message>
        <message>
            <source>Stop the layout here (its positions are kept)</source>
            <translation>Detener la distribución aquí (sus posiciones se conservan)</translation>
        </message>
        <message>
            <source>Export</source>
            <translation>Exportar</translation>
        </message>
        <message>
            <source>Whole graph as GraphML…</source>
            <translation>Grafo completo como GraphML…</translation>
        </message>
        <message>
            <source>Visible part as GraphML…</source>
            <translation>Parte visible como GraphML…</translation>
        </message>
        <message>
            <source>Picture as PNG…</source>
            <translation>Imagen como PNG…</translation>
        </message>
        <message>
            <source>Picture as SVG…</source>
            <translation>Imagen como SVG…</translation>
        </message>
        <message>
            <source>relation type</source>
            <translation>tipo de relación</translation>
        </message>
        <message>
            <source>Link</source>
            <translation>Enlazar</translation>
        </message>
        <message>
            <source>All</source>
            <translation>Todas</translation>
        </message>
        <message>
            <source>Types ({n_entity_types})</source>
            <translation>Tipos ({n_entity_types})</translation>
        </message>
        <message>
            <source>Relations ({n_relation_types})</source>
            <translation>Relaciones ({n_relation_types})</translation>
        </message>
        <message>
            <source>Open an entity to see its neighbourhood here.</source>
            <translation>Abre una entidad para ver aquí su entorno.</translation>
        </message>
        <message>
            <source>reading the graph</source>
            <translation>leer el grafo</translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entidad</numerusform>
                <numerusform>%Ln entidades</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relación</numerusform>
                <numerusform>%Ln relaciones</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n suggestions</source>
            <translation>
                <numerusform>%Ln sugerencia</numerusform>
                <numerusform>%Ln sugerencias</numerusform>
            </translation>
        </message>
        <message>
            <source>Reading the graph…</source>
            <translation>Leyendo el grafo…</translation>
        </message>
        <message>
            <source>This graph is empty.</source>
            <translation>Este grafo está vacío.</translation>
        </message>
        <message>
            <source> · laying out…</source>
            <translation> · distribuyendo…</translation>
        </message>
        <message>
            <source>saving the layout</source>
            <translation>guardar la distribución</translation>
        </message>
        <message>
            <source>The entity at the centre was deleted.</source>
            <translation>Se borró la entidad del centro.</translation>
        </message>
        <message>
            <source>reading the changed entities</source>
            <translation>leer las entidades cambiadas</translation>
        </message>
    </context>
    <context>
        <name>HealthDock</name>
        <message>
            <source>Memory health</source>
            <translation>Salud de la memoria</translation>
        </message>
    </context>
    <context>
        <name>HealthView</name>
        <message>
            <source>Memory health</source>
            <translation>Salud de la memoria</translation>
        </message>
        <message>
            <source>Kinds of finding</source>
            <translation>Tipos de hallazgo</translation>
        </message>
        <message>
            <source>Findings</source>
            <translation>Hallazgos</translation>
        </message>
        <message>
            <source>The finding in detail</source>
            <translation>El hallazgo en detalle</translation>
        </message>
        <message>
            <source>Type of the merged entity</source>
            <translation>Tipo de la entidad fusionada</translation>
        </message>
        <message>
            <source>&amp;Check again (R)</source>
            <translation>&amp;Comprobar de nuevo (R)</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancelar</translation>
        </message>
        <message>
            <source>K or Up: back · Esc: to the search</source>
            <translation>K o Arriba: volver · Esc: a la búsqueda</translation>
        </message>
        <message>
            <source>Merge… (M)</source>
            <translation>Fusionar… (M)</translation>
        </message>
        <message>
            <source>Keep the other (S)</source>
            <translation>Conservar la otra (S)</translation>
        </message>
        <message>
            <source>Skip (J)</source>
            <translation>Saltar (J)</translation>
        </message>
        <message>
            <source>Not duplicates (D)</source>
            <translation>No son duplicados (D)</translation>
        </message>
        <message>
            <source>Open (O)</source>
            <translation>Abrir (O)</translation>
        </message>
        <message>
            <source>Merge now (M)</source>
            <translation>Fusionar ahora (M)</translation>
        </message>
        <message>
            <source>Dismiss (D)</source>
            <translation>Descartar (D)</translation>
        </message>
        <message>
            <source>Checking the graph…</source>
            <translation>Comprobando el grafo…</translation>
        </message>
        <message>
            <source>less than 0.1 s</source>
            <translation>menos de 0,1 s</translation>
        </message>
        <message>
            <source>{seconds} s</source>
            <translation>{seconds} s</translation>
        </message>
        <message numerus="yes">
            <source>%n entities checked in {took}.</source>
            <translation>
                <numerusform>%Ln entidad comprobada en {took}.</numerusform>
                <numerusform>%Ln entidades comprobadas en {took}.</numerusform>
            </translation>
        </message>
        <message>
            <source>&lt;p&gt;Nothing found here.&lt;/p&gt;</source>
            <translation>&lt;p&gt;Aquí no se encontró nada.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;Checking…&lt;/p&gt;</source>
            <translation>&lt;p&gt;Comprobando…&lt;/p&gt;</translation>
        </message>
        <message>
            <source>previewing the merge</source>
            <translation>previsualizar la fusión</translation>
        </message>
        <message>
            <source>Type: {target}</source>
            <translation>Tipo: {target}</translation>
        </message>
        <message>
            <source>Type: {source}</source>
            <translation>Tipo: {source}</translation>
        </message>
        <message>
            <source>&lt;p&gt;The merge was not made: {message}&lt;/p&gt;</source>
            <translation>&lt;p&gt;La fusión no se hizo: {message}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Merged: {value}. Ctrl+Z in the main window undoes it.</source>
            <translation>Fusionado: {value}. Ctrl+Z en la ventana principal lo deshace.</translation>
        </message>
    </context>
    <context>
        <name>HeldRows</name>
        <message>
            <source>an observation</source>
            <translation>una observación</translation>
        </message>
        <message>
            <source>a name</source>
            <translation>un nombre</translation>
        </message>
        <message>
            <source>an alias</source>
            <translation>un alias</translation>
        </message>
        <message>
            <source>a reflection</source>
            <translation>una reflexión</translation>
        </message>
        <message>
            <source>a relation's context</source>
            <translation>el contexto de una relación</translation>
        </message>
        <message>
            <source>a type</source>
            <translation>un tipo</translation>
        </message>
        <message>
            <source>a relation type</source>
            <translation>un tipo de relación</translation>
        </message>
        <message>
            <source>a kind</source>
            <translation>una clase de observación</translation>
        </message>
        <message>
            <source>a value</source>
            <translation>un valor</translation>
        </message>
        <message>
            <source>a private key</source>
            <translation>una clave privada</translation>
        </message>
        <message>
            <source>an access key</source>
            <translation>una clave de acceso</translation>
        </message>
        <message>
            <source>a secret key</source>
            <translation>una clave secreta</translation>
        </message>
        <message>
            <source>a token</source>
            <translation>un token</translation>
        </message>
        <message>
            <source>a webhook</source>
            <translation>un webhook</translation>
        </message>
        <message>
            <source>an API key</source>
            <translation>una clave de API</translation>
        </message>
        <message>
            <source>a key</source>
            <translation>una clave</translation>
        </message>
        <message>
            <source>a JSON Web Token</source>
            <translation>un JSON Web Token</translation>
        </message>
        <message>
            <source>a URL with a password</source>
            <translation>una URL con contraseña</translation>
        </message>
        <message>
            <source>a secret</source>
            <translation>un secreto</translation>
        </message>
        <message>
            <source>a password</source>
            <translation>una contraseña</translation>
        </message>
        <message>
            <source>a card number</source>
            <translation>un número de tarjeta</translation>
        </message>
        <message>
            <source>a bank account number</source>
            <translation>un número de cuenta bancaria</translation>
        </message>
        <message>
            <source>{what} looks like {like}</source>
            <translation>{what} parece {like}</translation>
        </message>
        <message>
            <source>Held for your review: {why} · for {subjects} · {time}, {day}</source>
            <translation>Retenida para que la revises: {why} · para {subjects} · {time}, {day}</translation>
        </message>
        <message>
            <source>Held for your review: {why} · {time}, {day}</source>
            <translation>Retenida para que la revises: {why} · {time}, {day}</translation>
        </message>
        <message>
            <source>{title}
Sent by {who} with {tool}, {at} UTC. Nothing of it is stored or shown to any assistant until you accept it.</source>
            <translation>{title}
La envió {who} con {tool}, {at} UTC. Nada de ella se guarda ni se muestra a ningún asistente hasta que la aceptes.</translation>
        </message>
        <message>
            <source>an assistant</source>
            <translation>un asistente</translation>
        </message>
        <message numerus="yes">
            <source>“{who}” · %n writes held for your review</source>
            <translation>
                <numerusform>“{who}” · %Ln escritura retenida para que la revises</numerusform>
                <numerusform>“{who}” · %Ln escrituras retenidas para que las revises</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n held for your review</source>
            <translation>
                <numerusform> · %Ln retenida para que la revises</numerusform>
                <numerusform> · %Ln retenidas para que las revises</numerusform>
            </translation>
        </message>
        <message>
            <source>Accept</source>
            <translation>Aceptar</translation>
        </message>
        <message>
            <source>Accept the held write</source>
            <translation>Aceptar la escritura retenida</translation>
        </message>
        <message>
            <source>Store it as your own write (Edit → Undo takes it back)</source>
            <translation>Guardarla como escritura tuya (Editar → Deshacer la retira)</translation>
        </message>
        <message>
            <source>Accept as private</source>
            <translation>Aceptar como privada</translation>
        </message>
        <message>
            <source>Accept the held write as private</source>
            <translation>Aceptar la escritura retenida como privada</translation>
        </message>
        <message>
            <source>Store it and keep the entities it wrote from every assistant</source>
            <translation>Guardarla y ocultar a todos los asistentes las entidades que escribe</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>Descartar</translation>
        </message>
        <message>
            <source>Discard the held write</source>
            <translation>Descartar la escritura retenida</translation>
        </message>
        <message>
            <source>Erase its text: nothing of it is stored</source>
            <translation>Borrar su texto: no se guarda nada de ella</translation>
        </message>
        <message>
            <source>Show in full</source>
            <translation>Mostrar completo</translation>
        </message>
        <message>
            <source>Show the held text in full</source>
            <translation>Mostrar completo el texto retenido</translation>
        </message>
        <message>
            <source>Show the text this write holds unmasked, in this list only</source>
            <translation>Mostrar sin ocultar el texto de esta escritura, solo en esta lista</translation>
        </message>
        <message>
            <source>looking for held writes</source>
            <translation>buscar escrituras retenidas</translation>
        </message>
        <message>
            <source>the graph</source>
            <translation>el grafo</translation>
        </message>
        <message>
            <source>deciding on a held write</source>
            <translation>decidir sobre una escritura retenida</translation>
        </message>
        <message>
            <source>acceptance of the held write to {subjects}</source>
            <translation>aceptación de la escritura retenida para {subjects}</translation>
        </message>
        <message>
            <source>Accepted as private: stored as your own write to {subjects}, kept from every assistant (Edit → Undo takes it back).</source>
            <translation>Aceptada como privada: guardada como escritura tuya en {subjects}, oculta a todos los asistentes (Editar → Deshacer la retira).</translation>
        </message>
        <message>
            <source>Accepted: stored as your own write to {subjects} (Edit → Undo takes it back).</source>
            <translation>Aceptada: guardada como escritura tuya en {subjects} (Editar → Deshacer la retira).</translation>
        </message>
        <message>
            <source>Discarded: the held write to {subjects} is erased; nothing of it was stored.</source>
            <translation>Descartada: la escritura retenida para {subjects} se borró; no se guardó nada de ella.</translation>
        </message>
    </context>
    <context>
        <name>Home</name>
        <message>
            <source>Pinned</source>
            <translation>Fijadas</translation>
        </message>
        <message>
            <source>Recently opened</source>
            <translation>Abiertas hace poco</translation>
        </message>
        <message>
            <source>Recently changed</source>
            <translation>Cambiadas hace poco</translation>
        </message>
    </context>
    <context>
        <name>HomeList</name>
        <message>
            <source>Pinned, recently opened and recently changed entities</source>
            <translation>Entidades fijadas, abiertas hace poco y cambiadas hace poco</translation>
        </message>
        <message>
            <source>{name} ({entity_type}); last changed {updated_at} UTC</source>
            <translation>{name} ({entity_type}); último cambio {updated_at} UTC</translation>
        </message>
        <message>
            <source>Type to search; entities you open, change or pin will be listed here.</source>
            <translation>Escribe para buscar; aquí aparecerán las entidades que abras, cambies o fijes.</translation>
        </message>
        <message>
            <source>Matching the filters ({n}+)</source>
            <translation>Coinciden con los filtros ({n}+)</translation>
        </message>
        <message>
            <source>Matching the filters ({n})</source>
            <translation>Coinciden con los filtros ({n})</translation>
        </message>
        <message>
            <source>No entity matches the filters.</source>
            <translation>Ninguna entidad coincide con los filtros.</translation>
        </message>
    </context>
    <context>
        <name>ImportProblemsDialog</name>
        <message>
            <source>Nothing was imported</source>
            <translation>No se importó nada</translation>
        </message>
        <message>
            <source>the first {n_problems} are listed</source>
            <translation>se listan las {n_problems} primeras</translation>
        </message>
        <message>
            <source>all are listed</source>
            <translation>se listan todas</translation>
        </message>
        <message numerus="yes">
            <source>%n lines</source>
            <translation>
                <numerusform>%Ln línea</numerusform>
                <numerusform>%Ln líneas</numerusform>
            </translation>
        </message>
        <message>
            <source>{name} was not imported: {lines} cannot be read ({shown}). Fix them and import the file again; the graph was left as it was.</source>
            <translation>{name} no se importó: no se pueden leer {lines} ({shown}). Corrígelas y vuelve a importar el archivo; el grafo quedó como estaba.</translation>
        </message>
        <message>
            <source>Line</source>
            <translation>Línea</translation>
        </message>
        <message>
            <source>Why it cannot be imported</source>
            <translation>Por qué no se puede importar</translation>
        </message>
        <message>
            <source>Copy list</source>
            <translation>Copiar la lista</translation>
        </message>
    </context>
    <context>
        <name>ImportWords</name>
        <message>
            <source>{read} ({new} new), {observations} and {relations} added</source>
            <translation>{read} ({new} nuevas); {observations} y {relations} añadidas</translation>
        </message>
        <message numerus="yes">
            <source>%n entities read</source>
            <translation>
                <numerusform>%Ln entidad leída</numerusform>
                <numerusform>%Ln entidades leídas</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n observations</source>
            <translation>
                <numerusform>%Ln observación</numerusform>
                <numerusform>%Ln observaciones</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relación</numerusform>
                <numerusform>%Ln relaciones</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Legend</name>
        <message>
            <source>▾ Types</source>
            <translation>▾ Tipos</translation>
        </message>
        <message>
            <source>▸ Types</source>
            <translation>▸ Tipos</translation>
        </message>
        <message>
            <source>▴ Fewer types</source>
            <translation>▴ Menos tipos</translation>
        </message>
        <message numerus="yes">
            <source>+%n more types</source>
            <translation>
                <numerusform>+%Ln tipo más</numerusform>
                <numerusform>+%Ln tipos más</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Limbic</source>
            <translation>Limbic</translation>
        </message>
        <message>
            <source>Results</source>
            <translation>Resultados</translation>
        </message>
        <message>
            <source>This graph is empty.
Load a small sample graph to try the search, or import your own notes or memory file.</source>
            <translation>Este grafo está vacío.
Carga un grafo de ejemplo pequeño para probar la búsqueda, o importa tus propias notas o tu archivo de memoria.</translation>
        </message>
        <message>
            <source>Load the sample graph</source>
            <translation>Cargar el grafo de ejemplo</translation>
        </message>
        <message>
            <source>Import…</source>
            <translation>Importar…</translation>
        </message>
        <message>
            <source>Model: loading…</source>
            <translation>Modelo: cargando…</translation>
        </message>
        <message>
            <source>The embedding model loads in the background</source>
            <translation>El modelo de embeddings se carga en segundo plano</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>&amp;Editar</translation>
        </message>
        <message>
            <source>&amp;New entity</source>
            <translation>&amp;Nueva entidad</translation>
        </message>
        <message>
            <source>&amp;Save entity</source>
            <translation>&amp;Guardar entidad</translation>
        </message>
        <message>
            <source>&amp;Delete entity…</source>
            <translation>&amp;Borrar entidad…</translation>
        </message>
        <message>
            <source>&amp;Go</source>
            <translation>&amp;Ir</translation>
        </message>
        <message>
            <source>&amp;Search</source>
            <translation>&amp;Buscar</translation>
        </message>
        <message>
            <source>the new entity</source>
            <translation>la entidad nueva</translation>
        </message>
        <message>
            <source>Unsaved changes</source>
            <translation>Cambios sin guardar</translation>
        </message>
        <message>
            <source>Save the changes to “{name}”?</source>
            <translation>¿Guardar los cambios de “{name}”?</translation>
        </message>
        <message>
            <source>{what} has to wait until the running job ends (or is cancelled); nothing was lost.</source>
            <translation>{what} tiene que esperar a que termine el trabajo en curso (o se cancele); no se perdió nada.</translation>
        </message>
        <message>
            <source>Limbic — {name} (read-only)[*]</source>
            <translation>Limbic — {name} (solo lectura)[*]</translation>
        </message>
        <message>
            <source>Limbic — {name}[*]</source>
            <translation>Limbic — {name}[*]</translation>
        </message>
        <message>
            <source> (the file is read-only)</source>
            <translation> (el archivo es de solo lectura)</translation>
        </message>
        <message>
            <source>{message} {name} is still open.</source>
            <translation>{message} {name} sigue abierto.</translation>
        </message>
        <message>
            <source>The database cannot be opened</source>
            <translation>No se puede abrir la base de datos</translation>
        </message>
        <message>
            <source>{message}

{name} stays open.</source>
            <translation>{message}

{name} sigue abierto.</translation>
        </message>
        <message>
            <source>
Use File → Open database to choose another file.</source>
            <translation>
Usa Archivo → Abrir base de datos para elegir otro archivo.</translation>
        </message>
        <message>
            <source>Loading {what}</source>
            <translation>Cargando {what}</translation>
        </message>
        <message>
            <source>Loading {what}; full-text search works meanwhile.</source>
            <translation>Cargando {what}; mientras tanto funciona la búsqueda de texto completo.</translation>
        </message>
        <message>
            <source>Model: {name}</source>
            <translation>Modelo: {name}</translation>
        </message>
        <message>
            <source>Semantic search is on</source>
            <translation>La búsqueda semántica está activa</translation>
        </message>
        <message>
            <source>Model {name} ready.</source>
            <translation>Modelo {name} listo.</translation>
        </message>
        <message>
            <source>Model {name} ready: the next search uses meaning too.</source>
            <translation>Modelo {name} listo: la próxima búsqueda usa también el significado.</translation>
        </message>
        <message>
            <source>Semantic search off</source>
            <translation>Búsqueda semántica desactivada</translation>
        </message>
        <message>
            <source>Semantic search is off: {reason}</source>
            <translation>La búsqueda semántica está desactivada: {reason}</translation>
        </message>
        <message>
            <source>Problem while {what}</source>
            <translation>Problema al {what}</translation>
        </message>
        <message>
            <source>Problem while {job}</source>
            <translation>Problema al {job}</translation>
        </message>
        <message>
            <source>backing up</source>
            <translation>hacer la copia de seguridad</translation>
        </message>
        <message>
            <source>restoring the backup</source>
            <translation>restaurar la copia de seguridad</translation>
        </message>
        <message>
            <source>an assistant</source>
            <translation>un asistente</translation>
        </message>
        <message>
            <source>another program</source>
            <translation>otro programa</translation>
        </message>
        <message>
            <source>{what} by {who}</source>
            <translation>{what} por {who}</translation>
        </message>
        <message>
            <source>The graph was changed by another program; results refreshed.</source>
            <translation>Otro programa cambió el grafo; resultados actualizados.</translation>
        </message>
    </context>
    <context>
        <name>MergeDialog</name>
        <message>
            <source>Merge entity</source>
            <translation>Fusionar entidad</translation>
        </message>
        <message>
            <source>Entity to merge into</source>
            <translation>Entidad con la que fusionar</translation>
        </message>
        <message>
            <source>Name of the entity to keep</source>
            <translation>Nombre de la entidad que se conserva</translation>
        </message>
        <message>
            <source>Merge “{source}” into another entity: its observations and relations move there, duplicates are kept once, and “{source}” becomes an alias of the entity kept (the quick switcher, search and assistants still find it by that name). Edit → Undo takes it back.</source>
            <translation>Fusionar “{source}” con otra entidad: sus observaciones y relaciones pasan a ella, los duplicados se guardan una sola vez y “{source}” se convierte en un alias de la entidad conservada (el selector rápido, la búsqueda y los asistentes la siguen encontrando por ese nombre). Editar → Deshacer lo revierte.</translation>
        </message>
        <message>
            <source>Merge</source>
            <translation>Fusionar</translation>
        </message>
        <message>
            <source>Type the name of the entity to merge into.</source>
            <translation>Escribe el nombre de la entidad con la que fusionar.</translation>
        </message>
        <message>
            <source>“{target}” is the entity being merged; choose another one.</source>
            <translation>“{target}” es la entidad que se fusiona; elige otra.</translation>
        </message>
    </context>
    <context>
        <name>MetaLabel</name>
        <message>
            <source>created {value} · updated {updated} UTC</source>
            <translation>creada {value} · actualizada {updated} UTC</translation>
        </message>
        <message>
            <source>created {value} · updated {updated}</source>
            <translation>creada {value} · actualizada {updated}</translation>
        </message>
    </context>
    <context>
        <name>NameCompletions</name>
        <message>
            <source>{name} — also {text}</source>
            <translation>{name} — también {text}</translation>
        </message>
    </context>
    <context>
        <name>NameOnlyIconProvider</name>
        <message>
            <source>Folder</source>
            <translation>Carpeta</translation>
        </message>
    </context>
    <context>
        <name>NewFolderDialog</name>
        <message>
            <source>The folder {name} cannot be created ({strerror}). Choose another name or place.</source>
            <translation>No se puede crear la carpeta {name} ({strerror}). Elige otro nombre u otro lugar.</translation>
        </message>
    </context>
    <context>
        <name>ObservationDelegate</name>
        <message>
            <source>Enter keeps the change, Shift+Enter starts a new line, Esc drops it</source>
            <translation>Intro conserva el cambio, Mayús+Intro empieza una línea nueva, Esc lo descarta</translation>
        </message>
    </context>
    <context>
        <name>OneColumn</name>
        <message>
            <source>← Back to the results</source>
            <translation>← Volver a los resultados</translation>
        </message>
        <message>
            <source>Show the search results again (the editor keeps its entity)</source>
            <translation>Mostrar de nuevo los resultados de la búsqueda (el editor conserva su entidad)</translation>
        </message>
        <message>
            <source>Back to the results</source>
            <translation>Volver a los resultados</translation>
        </message>
    </context>
    <context>
        <name>OrganiseMenu</name>
        <message>
            <source>&amp;Organise</source>
            <translation>&amp;Organizar</translation>
        </message>
        <message>
            <source>&amp;Browse entities…</source>
            <translation>&amp;Explorar entidades…</translation>
        </message>
        <message>
            <source>Every entity by type, sorted by name, last change or use</source>
            <translation>Todas las entidades por tipo, ordenadas por nombre, último cambio o uso</translation>
        </message>
        <message>
            <source>&amp;Pin entity</source>
            <translation>&amp;Fijar entidad</translation>
        </message>
        <message>
            <source>Keep the open entity listed when the search box is empty</source>
            <translation>Mantener la entidad abierta en la lista cuando el cuadro de búsqueda está vacío</translation>
        </message>
        <message>
            <source>&amp;Merge into…</source>
            <translation>F&amp;usionar con…</translation>
        </message>
        <message>
            <source>Move the open entity's observations and relations into another, then delete it</source>
            <translation>Pasar las observaciones y relaciones de la entidad abierta a otra, y después borrarla</translation>
        </message>
        <message>
            <source>Rename &amp;type…</source>
            <translation>Renombrar &amp;tipo…</translation>
        </message>
        <message>
            <source>Give every entity of a type another type name</source>
            <translation>Dar otro nombre de tipo a todas las entidades de un tipo</translation>
        </message>
        <message>
            <source>Memory &amp;health…</source>
            <translation>&amp;Salud de la memoria…</translation>
        </message>
        <message>
            <source>Possible duplicates, repeated observations, orphans, stale and oversized entities</source>
            <translation>Posibles duplicados, observaciones repetidas, huérfanas, entidades viejas y demasiado grandes</translation>
        </message>
        <message>
            <source>Open a graph to check its health.</source>
            <translation>Abre un grafo para comprobar su salud.</translation>
        </message>
        <message>
            <source>Un&amp;pin entity</source>
            <translation>Soltar &amp;entidad</translation>
        </message>
        <message>
            <source>Open an entity to pin it.</source>
            <translation>Abre una entidad para fijarla.</translation>
        </message>
        <message>
            <source>Pinning</source>
            <translation>Fijando</translation>
        </message>
        <message>
            <source>Pinned “{name}”.</source>
            <translation>“{name}” fijada.</translation>
        </message>
        <message>
            <source>Unpinned “{name}”.</source>
            <translation>“{name}” soltada.</translation>
        </message>
        <message>
            <source>Open the entity to merge into another one first.</source>
            <translation>Abre primero la entidad que quieres fusionar con otra.</translation>
        </message>
        <message>
            <source>Merging</source>
            <translation>Fusionando</translation>
        </message>
        <message>
            <source>Merged: {value}. Press Ctrl+Z to undo.</source>
            <translation>Fusionado: {value}. Pulsa Ctrl+Z para deshacer.</translation>
        </message>
        <message>
            <source>Renaming a type</source>
            <translation>Renombrando un tipo</translation>
        </message>
        <message numerus="yes">
            <source>Renamed the type “{old}” to “{new}” on %n entities. Press Ctrl+Z to undo.</source>
            <translation>
                <numerusform>Tipo “{old}” renombrado a “{new}” en %Ln entidad. Pulsa Ctrl+Z para deshacer.</numerusform>
                <numerusform>Tipo “{old}” renombrado a “{new}” en %Ln entidades. Pulsa Ctrl+Z para deshacer.</numerusform>
            </translation>
        </message>
        <message>
            <source>renaming the type</source>
            <translation>renombrar el tipo</translation>
        </message>
    </context>
    <context>
        <name>Palette</name>
        <message>
            <source>Export JSONL…</source>
            <translation>Exportar JSONL…</translation>
        </message>
        <message>
            <source>jsonl json memory file mcp</source>
            <translation>jsonl json memoria archivo mcp</translation>
        </message>
        <message>
            <source>Export as Markdown…</source>
            <translation>Exportar como Markdown…</translation>
        </message>
        <message>
            <source>md markdown notes obsidian vault folder</source>
            <translation>md markdown notas obsidian bóveda carpeta</translation>
        </message>
        <message>
            <source>Export as CSV…</source>
            <translation>Exportar como CSV…</translation>
        </message>
        <message>
            <source>csv spreadsheet excel table comma</source>
            <translation>csv hoja de cálculo excel tabla coma</translation>
        </message>
        <message>
            <source>Import…</source>
            <translation>Importar…</translation>
        </message>
        <message>
            <source>jsonl json csv memory load open</source>
            <translation>jsonl json csv memoria cargar abrir</translation>
        </message>
        <message>
            <source>Import a folder of notes…</source>
            <translation>Importar una carpeta de notas…</translation>
        </message>
        <message>
            <source>markdown md obsidian vault csv folder</source>
            <translation>markdown md obsidian bóveda csv carpeta</translation>
        </message>
        <message>
            <source>Back up now</source>
            <translation>Hacer copia ahora</translation>
        </message>
        <message>
            <source>backup copy save snapshot</source>
            <translation>copia seguridad respaldo guardar instantánea</translation>
        </message>
        <message>
            <source>Restore from backup…</source>
            <translation>Restaurar desde una copia…</translation>
        </message>
        <message>
            <source>backup snapshot recover</source>
            <translation>copia seguridad respaldo instantánea recuperar</translation>
        </message>
        <message>
            <source>Load the sample graph</source>
            <translation>Cargar el grafo de ejemplo</translation>
        </message>
        <message>
            <source>demo example try</source>
            <translation>demo ejemplo probar</translation>
        </message>
        <message>
            <source>Settings…</source>
            <translation>Ajustes…</translation>
        </message>
        <message>
            <source>preferences options configure scoring ranking</source>
            <translation>preferencias opciones configurar puntuación clasificación</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>Salir</translation>
        </message>
        <message>
            <source>exit close</source>
            <translation>salir cerrar</translation>
        </message>
        <message>
            <source>Sync…</source>
            <translation>Sincronizar…</translation>
        </message>
        <message>
            <source>devices folder syncthing dropbox icloud nextcloud onedrive share laptop desktop</source>
            <translation>dispositivos carpeta syncthing dropbox icloud nextcloud onedrive compartir portátil escritorio</translation>
        </message>
        <message>
            <source>Sync conflicts…</source>
            <translation>Conflictos de sincronización…</translation>
        </message>
        <message>
            <source>devices conflict mine theirs both resolve choose keep sync</source>
            <translation>dispositivos conflicto mío suyo ambos resolver elegir conservar sincronizar</translation>
        </message>
        <message>
            <source>Delete entity…</source>
            <translation>Borrar entidad…</translation>
        </message>
        <message>
            <source>remove</source>
            <translation>eliminar quitar</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>Deshacer</translation>
        </message>
        <message>
            <source>revert take back</source>
            <translation>revertir deshacer</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Buscar</translation>
        </message>
        <message>
            <source>find query</source>
            <translation>buscar consulta</translation>
        </message>
        <message>
            <source>Quick switcher…</source>
            <translation>Selector rápido…</translation>
        </message>
        <message>
            <source>jump open go to find entity name</source>
            <translation>saltar abrir ir a buscar entidad nombre</translation>
        </message>
        <message>
            <source>Search filters</source>
            <translation>Filtros de búsqueda</translation>
        </message>
        <message>
            <source>filter narrow type status date created updated</source>
            <translation>filtrar acotar tipo estado fecha creada actualizada</translation>
        </message>
        <message>
            <source>Browse entities…</source>
            <translation>Explorar entidades…</translation>
        </message>
        <message>
            <source>list all types</source>
            <translation>lista todos tipos</translation>
        </message>
        <message>
            <source>Pin entity</source>
            <translation>Fijar entidad</translation>
        </message>
        <message>
            <source>favourite favorite star keep</source>
            <translation>favorita estrella guardar</translation>
        </message>
        <message>
            <source>Merge into…</source>
            <translation>Fusionar con…</translation>
        </message>
        <message>
            <source>combine join</source>
            <translation>combinar unir juntar</translation>
        </message>
        <message>
            <source>Rename type…</source>
            <translation>Renombrar tipo…</translation>
        </message>
        <message>
            <source>retype types</source>
            <translation>cambiar tipo tipos</translation>
        </message>
        <message>
            <source>Memory health…</source>
            <translation>Salud de la memoria…</translation>
        </message>
        <message>
            <source>duplicates dupes doubles orphans stale oversized cleanup clean repeated check</source>
            <translation>duplicados dobles repetidos huérfanas viejas grandes limpieza limpiar comprobar</translation>
        </message>
        <message>
            <source>Local graph</source>
            <translation>Grafo local</translation>
        </message>
        <message>
            <source>neighbours neighbors network map view</source>
            <translation>vecinas vecinos red mapa vista</translation>
        </message>
        <message>
            <source>Whole graph</source>
            <translation>Grafo completo</translation>
        </message>
        <message>
            <source>network map view all</source>
            <translation>red mapa vista todo</translation>
        </message>
        <message>
            <source>Zoom in</source>
            <translation>Ampliar</translation>
        </message>
        <message>
            <source>bigger larger text font size</source>
            <translation>más grande texto letra tamaño</translation>
        </message>
        <message>
            <source>Zoom out</source>
            <translation>Reducir</translation>
        </message>
        <message>
            <source>smaller text font size</source>
            <translation>más pequeño texto letra tamaño</translation>
        </message>
        <message>
            <source>Actual size</source>
            <translation>Tamaño real</translation>
        </message>
        <message>
            <source>reset zoom text font size</source>
            <translation>restablecer zoom texto letra tamaño</translation>
        </message>
        <message>
            <source>Activity panel</source>
            <translation>Panel de actividad</translation>
        </message>
        <message>
            <source>assistants changes log review history sessions</source>
            <translation>asistentes cambios registro revisar historia sesiones</translation>
        </message>
        <message>
            <source>Mark all reviewed</source>
            <translation>Marcar todo como revisado</translation>
        </message>
        <message>
            <source>activity read seen</source>
            <translation>actividad leído visto</translation>
        </message>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>Atajos de teclado</translation>
        </message>
        <message>
            <source>keys help cheatsheet</source>
            <translation>teclas ayuda chuleta</translation>
        </message>
        <message>
            <source>About Limbic</source>
            <translation>Acerca de Limbic</translation>
        </message>
        <message>
            <source>version</source>
            <translation>versión</translation>
        </message>
    </context>
    <context>
        <name>PastEntityView</name>
        <message>
            <source>As of</source>
            <translation>Tal como era</translation>
        </message>
        <message>
            <source>Back to &amp;now</source>
            <translation>Volver a &amp;ahora</translation>
        </message>
        <message>
            <source>Show the entity as it is now, with any unsaved edits (Esc)</source>
            <translation>Mostrar la entidad como es ahora, con las ediciones sin guardar (Esc)</translation>
        </message>
        <message>
            <source>◀ &amp;Earlier</source>
            <translation>◀ A&amp;ntes</translation>
        </message>
        <message>
            <source>The entity just after the event before this one</source>
            <translation>La entidad justo después del evento anterior a este</translation>
        </message>
        <message>
            <source>La&amp;ter ▶</source>
            <translation>&amp;Después ▶</translation>
        </message>
        <message>
            <source>The entity just after the next event</source>
            <translation>La entidad justo después del evento siguiente</translation>
        </message>
        <message>
            <source> (just after: {sentence})</source>
            <translation> (justo después de: {sentence})</translation>
        </message>
        <message>
            <source>&lt;b&gt;As of {escape}&lt;/b&gt;{after}: how “{escape2}” was then. Read-only.</source>
            <translation>&lt;b&gt;Tal como era el {escape}&lt;/b&gt;{after}: cómo era “{escape2}” entonces. Solo lectura.</translation>
        </message>
    </context>
    <context>
        <name>Picker</name>
        <message>
            <source>Matches</source>
            <translation>Coincidencias</translation>
        </message>
        <message>
            <source>Nothing matches.</source>
            <translation>Nada coincide.</translation>
        </message>
        <message>
            <source>Not available now</source>
            <translation>No disponible ahora</translation>
        </message>
        <message>
            <source>“{item}” is not available now.</source>
            <translation>“{item}” no está disponible ahora.</translation>
        </message>
    </context>
    <context>
        <name>PrivacyControl</name>
        <message>
            <source>Private: no assistant sees this entity</source>
            <translation>Privada: ningún asistente ve esta entidad</translation>
        </message>
        <message>
            <source>Private: no assistant sees this entity or anything on it. Click, or press {keys}, to show it to assistants again.</source>
            <translation>Privada: ningún asistente ve esta entidad ni nada de ella. Haz clic, o pulsa {keys}, para mostrarla de nuevo a los asistentes.</translation>
        </message>
        <message>
            <source>Private to &amp;assistants</source>
            <translation>Privada para los &amp;asistentes</translation>
        </message>
        <message>
            <source>No assistant sees the open entity, its observations or its relations</source>
            <translation>Ningún asistente ve la entidad abierta, sus observaciones ni sus relaciones</translation>
        </message>
        <message>
            <source>Private to assistants</source>
            <translation>Privada para los asistentes</translation>
        </message>
        <message>
            <source>Open an entity to make it private.</source>
            <translation>Abre una entidad para hacerla privada.</translation>
        </message>
        <message>
            <source>Marking private</source>
            <translation>Marcar como privada</translation>
        </message>
        <message>
            <source>“{name}” is private: no assistant sees it.</source>
            <translation>“{name}” es privada: ningún asistente la ve.</translation>
        </message>
        <message>
            <source>“{name}” is no longer private: assistants see it as their scope allows.</source>
            <translation>“{name}” ya no es privada: los asistentes la ven según su alcance.</translation>
        </message>
        <message>
            <source>marking the entity private</source>
            <translation>marcando la entidad como privada</translation>
        </message>
        <message>
            <source>noting the new assistants</source>
            <translation>anotando los asistentes nuevos</translation>
        </message>
        <message>
            <source>A new assistant used this graph: {names}. What each may read and write: File → Assistants….</source>
            <translation>Un asistente nuevo usó este grafo: {names}. Lo que cada uno puede leer y escribir: Archivo → Asistentes….</translation>
        </message>
    </context>
    <context>
        <name>QuickSwitcher</name>
        <message>
            <source>Jump to an entity…</source>
            <translation>Saltar a una entidad…</translation>
        </message>
        <message>
            <source>Type a name, typos are fine · Up/Down move · Enter opens · Esc closes</source>
            <translation>Escribe un nombre, se admiten erratas · Arriba/Abajo para moverte · Intro abre · Esc cierra</translation>
        </message>
        <message>
            <source>No entity has a name like that.</source>
            <translation>Ninguna entidad tiene un nombre así.</translation>
        </message>
        <message>
            <source>looking up names</source>
            <translation>buscar nombres</translation>
        </message>
    </context>
    <context>
        <name>ResultDelegate</name>
        <message>
            <source>100% of the best hit</source>
            <translation>100 % del mejor resultado</translation>
        </message>
    </context>
    <context>
        <name>ResultModel</name>
        <message numerus="yes">
            <source>%n results</source>
            <translation>
                <numerusform>%Ln resultado</numerusform>
                <numerusform>%Ln resultados</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n weak matches (under {share} of the best) not shown</source>
            <translation>
                <numerusform> · %Ln coincidencia débil (menos del {share} del mejor) sin mostrar</numerusform>
                <numerusform> · %Ln coincidencias débiles (menos del {share} del mejor) sin mostrar</numerusform>
            </translation>
        </message>
        <message>
            <source>{name}, {entity_type}, {share_text} of the best hit, found by {branch_label}</source>
            <translation>{name}, {entity_type}, {share_text} del mejor resultado, encontrada por {branch_label}</translation>
        </message>
        <message>
            <source>has the name you typed</source>
            <translation>tiene el nombre que escribiste</translation>
        </message>
        <message>
            <source>matches your words</source>
            <translation>coincide con tus palabras</translation>
        </message>
        <message>
            <source>close in meaning</source>
            <translation>cercana en significado</translation>
        </message>
        <message>
            <source>a word you typed, spelt like {words} here</source>
            <translation>una palabra que escribiste, escrita aquí como {words}</translation>
        </message>
        <message>
            <source>&lt;b&gt;{name}&lt;/b&gt; ({entity_type})&lt;br&gt;{share_text} of the best hit. Why it is here:&lt;br&gt;</source>
            <translation>&lt;b&gt;{name}&lt;/b&gt; ({entity_type})&lt;br&gt;{share_text} del mejor resultado. Por qué está aquí:&lt;br&gt;</translation>
        </message>
        <message>
            <source>found by {branch}</source>
            <translation>encontrada por {branch}</translation>
        </message>
        <message>
            <source>{note}: happened in the time asked about</source>
            <translation>{note}: ocurrió en el periodo que preguntaste</translation>
        </message>
        <message>
            <source>{note}: did not happen in the time asked about</source>
            <translation>{note}: no ocurrió en el periodo que preguntaste</translation>
        </message>
    </context>
    <context>
        <name>Results</name>
        <message>
            <source>text</source>
            <translation>texto</translation>
        </message>
        <message>
            <source>meaning</source>
            <translation>significado</translation>
        </message>
        <message>
            <source>text + meaning</source>
            <translation>texto + significado</translation>
        </message>
        <message>
            <source>exact name</source>
            <translation>nombre exacto</translation>
        </message>
        <message>
            <source>{share} of the best hit</source>
            <translation>{share} del mejor resultado</translation>
        </message>
        <message>
            <source>{note} · {share} of the best hit</source>
            <translation>{note} · {share} del mejor resultado</translation>
        </message>
        <message>
            <source>a lot</source>
            <translation>mucho</translation>
        </message>
        <message>
            <source>some</source>
            <translation>algo</translation>
        </message>
        <message>
            <source>a little</source>
            <translation>un poco</translation>
        </message>
        <message>
            <source>no</source>
            <translation>nada</translation>
        </message>
        <message>
            <source>Hybrid</source>
            <translation>Híbrida</translation>
        </message>
        <message>
            <source>Semantic</source>
            <translation>Semántica</translation>
        </message>
        <message>
            <source>Full text</source>
            <translation>Texto completo</translation>
        </message>
        <message>
            <source>matches what you asked</source>
            <translation>coincide con lo que preguntaste</translation>
        </message>
        <message>
            <source>often used</source>
            <translation>usada a menudo</translation>
        </message>
        <message>
            <source>recently used</source>
            <translation>usada hace poco</translation>
        </message>
        <message>
            <source>linked with the other hits</source>
            <translation>enlazada con los demás resultados</translation>
        </message>
        <message>
            <source>match: matches your words or is close in meaning</source>
            <translation>coincidencia: coincide con tus palabras o es cercana en significado</translation>
        </message>
        <message>
            <source>used: often used (opened, related, used on several days)</source>
            <translation>uso: usada a menudo (abierta, relacionada, usada varios días)</translation>
        </message>
        <message>
            <source>recent: recently used</source>
            <translation>reciente: usada hace poco</translation>
        </message>
        <message>
            <source>linked: linked with the other hits</source>
            <translation>enlace: enlazada con los demás resultados</translation>
        </message>
        <message>
            <source>match</source>
            <translation>coincidencia</translation>
        </message>
        <message>
            <source>used</source>
            <translation>uso</translation>
        </message>
        <message>
            <source>recent</source>
            <translation>reciente</translation>
        </message>
        <message>
            <source>linked</source>
            <translation>enlace</translation>
        </message>
        <message>
            <source>both</source>
            <translation>ambas</translation>
        </message>
    </context>
    <context>
        <name>RevertPreview</name>
        <message>
            <source>you</source>
            <translation>tú</translation>
        </message>
        <message>
            <source>you or another writer</source>
            <translation>tú u otro autor</translation>
        </message>
        <message>
            <source>another writer</source>
            <translation>otro autor</translation>
        </message>
        <message numerus="yes">
            <source>It will keep %n pieces you changed since (your edits stay as you left them):</source>
            <translation>
                <numerusform>Conservará %Ln elemento que cambiaste después (tus ediciones se quedan como las dejaste):</numerusform>
                <numerusform>Conservará %Ln elementos que cambiaste después (tus ediciones se quedan como las dejaste):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>It will keep %n pieces another writer changed since (their work stays as they left it):</source>
            <translation>
                <numerusform>Conservará %Ln elemento que otro autor cambió después (su trabajo se queda como lo dejó):</numerusform>
                <numerusform>Conservará %Ln elementos que otro autor cambió después (su trabajo se queda como lo dejó):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>It will keep %n pieces you or another writer changed since (each stays as it was left):</source>
            <translation>
                <numerusform>Conservará %Ln elemento que cambiaste tú u otro autor después (cada uno se queda como se dejó):</numerusform>
                <numerusform>Conservará %Ln elementos que cambiaste tú u otro autor después (cada uno se queda como se dejó):</numerusform>
            </translation>
        </message>
        <message>
            <source>Keep yours, take back the rest</source>
            <translation>Conservar lo tuyo, deshacer el resto</translation>
        </message>
        <message>
            <source>Keep theirs, take back the rest</source>
            <translation>Conservar lo suyo, deshacer el resto</translation>
        </message>
        <message>
            <source>Keep those, take back the rest</source>
            <translation>Conservar esos, deshacer el resto</translation>
        </message>
        <message>
            <source>Preview of the {what}</source>
            <translation>Vista previa de la {what}</translation>
        </message>
        <message>
            <source>Nothing has been changed yet.</source>
            <translation>Todavía no se ha cambiado nada.</translation>
        </message>
        <message numerus="yes">
            <source>It will take back %n pieces:</source>
            <translation>
                <numerusform>Deshará %Ln elemento:</numerusform>
                <numerusform>Deshará %Ln elementos:</numerusform>
            </translation>
        </message>
        <message>
            <source>It takes nothing back: the rest is as it was already.</source>
            <translation>No deshace nada: el resto ya está como estaba.</translation>
        </message>
        <message>
            <source>Taken back before: </source>
            <translation>Deshecho antes: </translation>
        </message>
        <message>
            <source>Take back</source>
            <translation>Deshacer</translation>
        </message>
        <message>
            <source>Restore into the existing entity</source>
            <translation>Restaurar en la entidad existente</translation>
        </message>
        <message>
            <source>Leave everything as it is</source>
            <translation>Dejar todo como está</translation>
        </message>
    </context>
    <context>
        <name>SafeFiles</name>
        <message>
            <source>Limbic database</source>
            <translation>Base de datos de Limbic</translation>
        </message>
        <message>
            <source>SQLite database</source>
            <translation>Base de datos SQLite</translation>
        </message>
        <message>
            <source>JSON lines</source>
            <translation>Líneas JSON</translation>
        </message>
        <message>
            <source>JSON</source>
            <translation>JSON</translation>
        </message>
        <message>
            <source>Markdown</source>
            <translation>Markdown</translation>
        </message>
        <message>
            <source>CSV</source>
            <translation>CSV</translation>
        </message>
        <message>
            <source>GraphML</source>
            <translation>GraphML</translation>
        </message>
        <message>
            <source>PNG image</source>
            <translation>Imagen PNG</translation>
        </message>
        <message>
            <source>SVG image</source>
            <translation>Imagen SVG</translation>
        </message>
        <message>
            <source>Backup</source>
            <translation>Copia de seguridad</translation>
        </message>
        <message>
            <source>{suffix} file</source>
            <translation>Archivo {suffix}</translation>
        </message>
        <message>
            <source>File</source>
            <translation>Archivo</translation>
        </message>
        <message>
            <source>Folder (a new name is created)</source>
            <translation>Carpeta (se crea un nombre nuevo)</translation>
        </message>
    </context>
    <context>
        <name>SampleGraph</name>
        <message numerus="yes">
            <source>Load the sample graph into “{graph}”? Its 50 entities would join the %n already there (Edit → Undo takes them back).</source>
            <translation>
                <numerusform>¿Cargar el grafo de ejemplo en “{graph}”? Sus 50 entidades se unirían a la %Ln que ya hay (Editar → Deshacer las quita).</numerusform>
                <numerusform>¿Cargar el grafo de ejemplo en “{graph}”? Sus 50 entidades se unirían a las %Ln que ya hay (Editar → Deshacer las quita).</numerusform>
            </translation>
        </message>
        <message>
            <source>Load the sample graph</source>
            <translation>Cargar el grafo de ejemplo</translation>
        </message>
        <message>
            <source>Load the sample</source>
            <translation>Cargar el ejemplo</translation>
        </message>
        <message>
            <source>The sample graph is missing from this installation ({path}).</source>
            <translation>Falta el grafo de ejemplo en esta instalación ({path}).</translation>
        </message>
        <message>
            <source>The sample graph was not loaded; your graph is unchanged.</source>
            <translation>No se cargó el grafo de ejemplo; tu grafo no ha cambiado.</translation>
        </message>
    </context>
    <context>
        <name>SearchBar</name>
        <message>
            <source>All types</source>
            <translation>Todos los tipos</translation>
        </message>
        <message>
            <source>Meaning and exact words together, then ranked by how you use the graph.</source>
            <translation>Significado y palabras exactas juntos, ordenados después según cómo usas el grafo.</translation>
        </message>
        <message>
            <source>No word of the query is in the graph, so only meaning was used.</source>
            <translation>Ninguna palabra de la consulta está en el grafo, así que solo se usó el significado.</translation>
        </message>
        <message>
            <source>The model is not available, so only exact words are matched.</source>
            <translation>El modelo no está disponible, así que solo se buscan palabras exactas.</translation>
        </message>
        <message>
            <source>meaning and words</source>
            <translation>significado y palabras</translation>
        </message>
        <message>
            <source>meaning only</source>
            <translation>solo significado</translation>
        </message>
        <message>
            <source>words only</source>
            <translation>solo palabras</translation>
        </message>
        <message>
            <source>Search by meaning and words (Hybrid), by meaning only, or by words only</source>
            <translation>Buscar por significado y palabras (Híbrida), solo por significado o solo por palabras</translation>
        </message>
        <message>
            <source>Hybrid</source>
            <translation>Híbrida</translation>
        </message>
        <message>
            <source>Meaning and exact words together (the default)</source>
            <translation>Significado y palabras exactas juntos (predeterminado)</translation>
        </message>
        <message>
            <source>Meaning only</source>
            <translation>Solo significado</translation>
        </message>
        <message>
            <source>Only the meaning of the query (vectors); exact words do not count</source>
            <translation>Solo el significado de la consulta (vectores); las palabras exactas no cuentan</translation>
        </message>
        <message>
            <source>Words only</source>
            <translation>Solo palabras</translation>
        </message>
        <message>
            <source>Only the exact words of the query (full text); meaning does not count</source>
            <translation>Solo las palabras exactas de la consulta (texto completo); el significado no cuenta</translation>
        </message>
        <message>
            <source>Search the graph…  (Ctrl+K or /)</source>
            <translation>Buscar en el grafo…  (Ctrl+K o /)</translation>
        </message>
        <message>
            <source>Type words, a phrase or an exact identifier. Up/Down to move, Enter to open, Esc to clear.</source>
            <translation>Escribe palabras, una frase o un identificador exacto. Arriba/Abajo para moverte, Intro para abrir, Esc para borrar.</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Buscar</translation>
        </message>
        <message>
            <source>Only show entities of this type</source>
            <translation>Mostrar solo entidades de este tipo</translation>
        </message>
        <message>
            <source>Entity type filter</source>
            <translation>Filtro por tipo de entidad</translation>
        </message>
        <message>
            <source>Search mode</source>
            <translation>Modo de búsqueda</translation>
        </message>
    </context>
    <context>
        <name>SearchFilters</name>
        <message>
            <source>Search &amp;filters</source>
            <translation>&amp;Filtros de búsqueda</translation>
        </message>
        <message>
            <source>Narrow the search by relation type, status and dates</source>
            <translation>Acotar la búsqueda por tipo de relación, estado y fechas</translation>
        </message>
        <message>
            <source>Filtered: {describe}.</source>
            <translation>Filtrado: {describe}.</translation>
        </message>
        <message numerus="yes">
            <source>%n+ entities match; type to search them</source>
            <translation>
                <numerusform>%Ln+ entidad coincide; escribe para buscar en ella</numerusform>
                <numerusform>%Ln+ entidades coinciden; escribe para buscar en ellas</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities match; type to search them</source>
            <translation>
                <numerusform>%Ln entidad coincide; escribe para buscar en ella</numerusform>
                <numerusform>%Ln entidades coinciden; escribe para buscar en ellas</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n hits hidden by them</source>
            <translation>
                <numerusform>%Ln resultado oculto por ellos</numerusform>
                <numerusform>%Ln resultados ocultos por ellos</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SearchFlow</name>
        <message>
            <source>Searching…</source>
            <translation>Buscando…</translation>
        </message>
        <message>
            <source>No results for “{query}”.</source>
            <translation>Sin resultados para “{query}”.</translation>
        </message>
        <message numerus="yes">
            <source>%n entities wait for embedding and are found by their words only</source>
            <translation>
                <numerusform>%Ln entidad espera su vector y solo se encuentra por sus palabras</numerusform>
                <numerusform>%Ln entidades esperan su vector y solo se encuentran por sus palabras</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Settings</name>
        <message>
            <source>As the system</source>
            <translation>Como el sistema</translation>
        </message>
        <message>
            <source>The language of the window; a change applies when Limbic starts again</source>
            <translation>El idioma de la ventana; un cambio se aplica cuando Limbic vuelve a arrancar</translation>
        </message>
        <message>
            <source>Language</source>
            <translation>Idioma</translation>
        </message>
    </context>
    <context>
        <name>SettingsDialog</name>
        <message>
            <source>Candidates per branch</source>
            <translation>Candidatos por rama</translation>
        </message>
        <message>
            <source>How many hits each branch brings, as a multiple of the results shown.</source>
            <translation>Cuántos resultados aporta cada rama, como múltiplo de los resultados mostrados.</translation>
        </message>
        <message>
            <source>Rank fusion smoothing</source>
            <translation>Suavizado de la fusión de rangos</translation>
        </message>
        <message>
            <source>Higher values narrow the gap between first and later ranks when fusing.</source>
            <translation>Valores más altos reducen la distancia entre el primer puesto y los siguientes al fusionar.</translation>
        </message>
        <message>
            <source>Weight of use</source>
            <translation>Peso del uso</translation>
        </message>
        <message>
            <source>How much entities you use often rise in the ranking.</source>
            <translation>Cuánto suben en la clasificación las entidades que usas a menudo.</translation>
        </message>
        <message>
            <source>Weight of connections</source>
            <translation>Peso de las conexiones</translation>
        </message>
        <message>
            <source>How much entities with many relations rise.</source>
            <translation>Cuánto suben las entidades con muchas relaciones.</translation>
        </message>
        <message>
            <source>Connections counted at most</source>
            <translation>Conexiones contadas como máximo</translation>
        </message>
        <message>
            <source>Relations beyond this number add nothing more.</source>
            <translation>Las relaciones por encima de este número no añaden nada más.</translation>
        </message>
        <message>
            <source>Weight of use on several days</source>
            <translation>Peso del uso en varios días</translation>
        </message>
        <message>
            <source>Use spread over many days counts more than one busy day.</source>
            <translation>El uso repartido en muchos días cuenta más que un solo día intenso.</translation>
        </message>
        <message>
            <source>Forgetting per hour</source>
            <translation>Olvido por hora</translation>
        </message>
        <message>
            <source>How fast unused entities sink: 0.0001 halves them in about 290 days.</source>
            <translation>Lo rápido que se hunden las entidades sin usar: 0,0001 las reduce a la mitad en unos 290 días.</translation>
        </message>
        <message>
            <source>Forgetting never below</source>
            <translation>El olvido nunca baja de</translation>
        </message>
        <message>
            <source>An old entity keeps at least this share of its score.</source>
            <translation>Una entidad antigua conserva al menos esta parte de su puntuación.</translation>
        </message>
        <message>
            <source>Old co-occurrence keeps</source>
            <translation>La coaparición antigua conserva</translation>
        </message>
        <message>
            <source>Entities found together long ago still count this share.</source>
            <translation>Las entidades encontradas juntas hace tiempo siguen contando esta parte.</translation>
        </message>
        <message>
            <source>Weight of co-occurrence</source>
            <translation>Peso de la coaparición</translation>
        </message>
        <message>
            <source>How much entities that often come up with the other hits rise.</source>
            <translation>Cuánto suben las entidades que suelen aparecer con los demás resultados.</translation>
        </message>
        <message>
            <source>Exact name boost</source>
            <translation>Impulso por nombre exacto</translation>
        </message>
        <message>
            <source>Factor for an entity whose name is the query.</source>
            <translation>Factor para una entidad cuyo nombre es la consulta.</translation>
        </message>
        <message>
            <source>Share of meaning</source>
            <translation>Parte del significado</translation>
        </message>
        <message>
            <source>In a fixed mix of meaning and words: meaning's share; exact words get the rest.</source>
            <translation>En una mezcla fija de significado y palabras: la parte del significado; las palabras exactas se llevan el resto.</translation>
        </message>
        <message>
            <source>Mixing meaning and words</source>
            <translation>Mezcla de significado y palabras</translation>
        </message>
        <message>
            <source>How hits by meaning and by exact words make one relevance.</source>
            <translation>Cómo los resultados por significado y por palabras exactas forman una sola relevancia.</translation>
        </message>
        <message>
            <source>Say “no good match”</source>
            <translation>Decir “ninguna buena coincidencia”</translation>
        </message>
        <message>
            <source>When meaning finds only chance-level hits, say so instead of listing them.</source>
            <translation>Cuando el significado solo encuentra resultados al azar, decirlo en vez de listarlos.</translation>
        </message>
        <message>
            <source>A named time first</source>
            <translation>Primero un tiempo nombrado</translation>
        </message>
        <message>
            <source>A query naming a time (“in June 2023”) lists what happened then first.</source>
            <translation>Una consulta que nombra un tiempo (“en junio de 2023”) lista primero lo que pasó entonces.</translation>
        </message>
        <message>
            <source>Texts that say little count less</source>
            <translation>Los textos que dicen poco cuentan menos</translation>
        </message>
        <message>
            <source>How much less a short, generic text (“Thanks, see you!”) counts for being close in meaning; 0: not at all.</source>
            <translation>Cuánto menos cuenta un texto corto y genérico (“¡Gracias, hasta luego!”) por ser cercano en significado; 0: nada.</translation>
        </message>
        <message>
            <source>…unless they share the query’s words</source>
            <translation>…salvo que compartan las palabras de la consulta</translation>
        </message>
        <message>
            <source>Texts holding words of the query count in full, however little they say.</source>
            <translation>Los textos que contienen palabras de la consulta cuentan por completo, por poco que digan.</translation>
        </message>
        <message>
            <source>…for questions more than long queries</source>
            <translation>…para preguntas más que para consultas largas</translation>
        </message>
        <message>
            <source>Texts that say little count less for a short question, and not at all for a query as long as a whole text.</source>
            <translation>Los textos que dicen poco cuentan menos para una pregunta corta, y nada para una consulta tan larga como un texto entero.</translation>
        </message>
        <message>
            <source>By how clearly each stands out</source>
            <translation>Según lo claro que destaca cada una</translation>
        </message>
        <message>
            <source>Meaning and words each count by how clearly their hits stand out from the rest, query by query (the default)</source>
            <translation>El significado y las palabras cuentan según lo claro que destacan sus resultados del resto, consulta a consulta (predeterminado)</translation>
        </message>
        <message>
            <source>A fixed share of each</source>
            <translation>Una parte fija de cada uno</translation>
        </message>
        <message>
            <source>Meaning gets the share set below, exact words the rest</source>
            <translation>El significado recibe la parte fijada abajo, las palabras exactas el resto</translation>
        </message>
        <message>
            <source>Rank order only</source>
            <translation>Solo el orden</translation>
        </message>
        <message>
            <source>Only the order of each kind's hits counts, not how good they are</source>
            <translation>Solo cuenta el orden de los resultados de cada tipo, no lo buenos que son</translation>
        </message>
        <message>
            <source>As the original engine</source>
            <translation>Como el motor original</translation>
        </message>
        <message>
            <source>As the memory engine Limbic reads imports from ranks</source>
            <translation>Como clasifica el motor de memoria del que Limbic importa</translation>
        </message>
        <message>
            <source>As the system</source>
            <translation>Como el sistema</translation>
        </message>
        <message>
            <source>Light</source>
            <translation>Claro</translation>
        </message>
        <message>
            <source>Dark</source>
            <translation>Oscuro</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>Ajustes</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>Búsqueda</translation>
        </message>
        <message>
            <source>Advanced ranking</source>
            <translation>Clasificación avanzada</translation>
        </message>
        <message>
            <source>The constants of the ranking formula; the defaults were measured</source>
            <translation>Las constantes de la fórmula de clasificación; los valores predeterminados se midieron</translation>
        </message>
        <message>
            <source>Reset to defaults</source>
            <translation>Restablecer los valores predeterminados</translation>
        </message>
        <message>
            <source>Put every ranking setting back to its default</source>
            <translation>Devolver cada ajuste de clasificación a su valor predeterminado</translation>
        </message>
        <message>
            <source>bundled multilingual-e5-small</source>
            <translation>multilingual-e5-small incluido</translation>
        </message>
        <message>
            <source>Empty for the bundled multilingual-e5-small (Spanish, English and about 100 other languages); all-MiniLM-L6-v2 for the English model; or a folder with model.onnx and tokenizer.json</source>
            <translation>Vacío para el multilingual-e5-small incluido (español, inglés y unos 100 idiomas más); all-MiniLM-L6-v2 para el modelo en inglés; o una carpeta con model.onnx y tokenizer.json</translation>
        </message>
        <message>
            <source>Database</source>
            <translation>Base de datos</translation>
        </message>
        <message>
            <source>Model folder</source>
            <translation>Carpeta del modelo</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>Archivos</translation>
        </message>
        <message>
            <source>The graph file opened at start-up: {db_edit}</source>
            <translation>El archivo de grafo que se abre al arrancar: {db_edit}</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>Asistentes</translation>
        </message>
        <message>
            <source>What each assistant may read and write in this graph, its pause, and the writes held for you to review.</source>
            <translation>Lo que cada asistente puede leer y escribir en este grafo, su pausa y las escrituras retenidas para que las revises.</translation>
        </message>
        <message>
            <source>&amp;Assistants…</source>
            <translation>&amp;Asistentes…</translation>
        </message>
        <message>
            <source>Light or dark colours, or as the system is set</source>
            <translation>Colores claros u oscuros, o como esté el sistema</translation>
        </message>
        <message>
            <source>Colours</source>
            <translation>Colores</translation>
        </message>
        <message>
            <source>Appearance</source>
            <translation>Apariencia</translation>
        </message>
        <message>
            <source>{help_text} (in the formula: {name})</source>
            <translation>{help_text} (en la fórmula: {name})</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>Examinar…</translation>
        </message>
        <message>
            <source>Database file</source>
            <translation>Archivo de base de datos</translation>
        </message>
        <message>
            <source>Limbic database (*.db);;All files (*)</source>
            <translation>Base de datos de Limbic (*.db);;Todos los archivos (*)</translation>
        </message>
    </context>
    <context>
        <name>ShortcutsDialog</name>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>Atajos de teclado</translation>
        </message>
        <message>
            <source>Keys</source>
            <translation>Teclas</translation>
        </message>
        <message>
            <source>Action</source>
            <translation>Acción</translation>
        </message>
    </context>
    <context>
        <name>Status</name>
        <message>
            <source>Writing</source>
            <translation>Escribiendo</translation>
        </message>
        <message>
            <source>Embedding</source>
            <translation>Calculando vectores</translation>
        </message>
    </context>
    <context>
        <name>StatusBadge</name>
        <message>
            <source>The entity's status; archived entities rank lower in search</source>
            <translation>El estado de la entidad; las entidades archivadas quedan más abajo en la búsqueda</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>Estado</translation>
        </message>
    </context>
    <context>
        <name>StatusPanel</name>
        <message>
            <source>Details…</source>
            <translation>Detalles…</translation>
        </message>
        <message>
            <source>The whole message, with everything it lists</source>
            <translation>El mensaje completo, con todo lo que enumera</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>Deshacer</translation>
        </message>
        <message>
            <source>Undo it (Ctrl+Z)</source>
            <translation>Deshacerlo (Ctrl+Z)</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>Cancelar</translation>
        </message>
        <message>
            <source>Stop the running job</source>
            <translation>Detener el trabajo en curso</translation>
        </message>
        <message>
            <source>Read-only</source>
            <translation>Solo lectura</translation>
        </message>
        <message>
            <source>Details</source>
            <translation>Detalles</translation>
        </message>
        <message numerus="yes">
            <source>… and %n more lines</source>
            <translation>
                <numerusform>… y %Ln línea más</numerusform>
                <numerusform>… y %Ln líneas más</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entidad</numerusform>
                <numerusform>%Ln entidades</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relación</numerusform>
                <numerusform>%Ln relaciones</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n by words only</source>
            <translation>
                <numerusform>%Ln solo por sus palabras</numerusform>
                <numerusform>%Ln solo por sus palabras</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities wait for embedding: until their vectors come they are found by their words only</source>
            <translation>
                <numerusform>%Ln entidad espera sus vectores: hasta que lleguen, se encuentra solo por sus palabras</numerusform>
                <numerusform>%Ln entidades esperan sus vectores: hasta que lleguen, se encuentran solo por sus palabras</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SuggestionLinkMixin</name>
        <message>
            <source>Link “{centre}” → “{value}” as</source>
            <translation>Enlazar “{centre}” → “{value}” como</translation>
        </message>
        <message>
            <source>Type a relation type first.</source>
            <translation>Escribe primero un tipo de relación.</translation>
        </message>
        <message>
            <source>linking the entities</source>
            <translation>enlazar las entidades</translation>
        </message>
    </context>
    <context>
        <name>Switcher</name>
        <message>
            <source>alias “{alias}”</source>
            <translation>alias “{alias}”</translation>
        </message>
    </context>
    <context>
        <name>SyncDialog</name>
        <message>
            <source>Sync</source>
            <translation>Sincronización</translation>
        </message>
        <message>
            <source>A folder Syncthing, Dropbox, iCloud Drive or Nextcloud keeps in sync</source>
            <translation>Una carpeta que Syncthing, Dropbox, iCloud Drive o Nextcloud mantiene sincronizada</translation>
        </message>
        <message>
            <source>Choose…</source>
            <translation>Elegir…</translation>
        </message>
        <message>
            <source>How the other devices name this one</source>
            <translation>Cómo llaman a este dispositivo los demás</translation>
        </message>
        <message>
            <source>Only to join a folder another device sealed: ABCD-EFGH-…</source>
            <translation>Solo para unirse a una carpeta que otro dispositivo selló: ABCD-EFGH-…</translation>
        </message>
        <message>
            <source>Recovery code</source>
            <translation>Código de recuperación</translation>
        </message>
        <message>
            <source>Every device that shares this folder ends up with the same graph; nothing is lost and each conflict is shown to you.</source>
            <translation>Todos los dispositivos que comparten esta carpeta acaban con el mismo grafo; no se pierde nada y se te muestra cada conflicto.</translation>
        </message>
        <message>
            <source>Sync &amp;folder:</source>
            <translation>&amp;Carpeta de sincronización:</translation>
        </message>
        <message>
            <source>This &amp;device:</source>
            <translation>Este &amp;dispositivo:</translation>
        </message>
        <message>
            <source>&amp;Recovery code:</source>
            <translation>Código de &amp;recuperación:</translation>
        </message>
        <message>
            <source>The folder is sealed: only your devices can read it. The first device shows its recovery code; the others join with it.</source>
            <translation>La carpeta está sellada: solo tus dispositivos pueden leerla. El primer dispositivo muestra su código de recuperación; los demás se unen con él.</translation>
        </message>
        <message>
            <source>Stop syncing</source>
            <translation>Dejar de sincronizar</translation>
        </message>
        <message>
            <source>&amp;New recovery code…</source>
            <translation>&amp;Nuevo código de recuperación…</translation>
        </message>
        <message>
            <source>Seal the folder anew under a new code (if the old one leaked): the old code opens nothing written from then on; your other devices ask for the new one.</source>
            <translation>Volver a sellar la carpeta con un código nuevo (si el anterior se filtró): el código anterior no abre nada de lo que se escriba desde entonces; tus otros dispositivos piden el nuevo.</translation>
        </message>
        <message>
            <source>Sync folder</source>
            <translation>Carpeta de sincronización</translation>
        </message>
        <message>
            <source>Seal the folder under a new code?</source>
            <translation>¿Sellar la carpeta con un código nuevo?</translation>
        </message>
        <message>
            <source>A new recovery code replaces the old one. Whoever has the old code can read nothing written from now on and add nothing. Each of your other devices asks for the new code at its next sync; everything the folder holds stays readable with it.</source>
            <translation>Un código de recuperación nuevo sustituye al anterior. Quien tenga el código anterior no podrá leer nada de lo que se escriba a partir de ahora ni añadir nada. Cada uno de tus otros dispositivos pide el código nuevo en su próxima sincronización; todo lo que contiene la carpeta sigue siendo legible con él.</translation>
        </message>
    </context>
    <context>
        <name>SyncFlow</name>
        <message>
            <source>The sync folder {folder} cannot be reached (it does not exist or is not a folder); sync resumes when it can.</source>
            <translation>No se puede acceder a la carpeta de sincronización {folder} (no existe o no es una carpeta); la sincronización se reanuda cuando se pueda.</translation>
        </message>
        <message>
            <source>A batch from another device waits for your confirmation; File → Sync… asks again.</source>
            <translation>Un lote de otro dispositivo espera tu confirmación; Archivo → Sincronizar… vuelve a preguntar.</translation>
        </message>
        <message>
            <source>Synced: {sent} sent, {received} received.</source>
            <translation>Sincronizado: {sent} enviados, {received} recibidos.</translation>
        </message>
        <message numerus="yes">
            <source>%n changes</source>
            <translation>
                <numerusform>%Ln cambio</numerusform>
                <numerusform>%Ln cambios</numerusform>
            </translation>
        </message>
        <message>
            <source>Keep this recovery code</source>
            <translation>Guarda este código de recuperación</translation>
        </message>
        <message>
            <source>This graph's sync folder is sealed: only your own devices can read it or add to it.

Recovery code:  {code}

Another device joins with it (File → Sync…, Recovery code). Keep it in a password manager or on paper; limbic sync --show-code shows it again here. Losing it loses no data.</source>
            <translation>La carpeta de sincronización de este grafo está sellada: solo tus propios dispositivos pueden leerla o añadir a ella.

Código de recuperación:  {code}

Otro dispositivo se une con él (Archivo → Sincronizar…, Código de recuperación). Guárdalo en un gestor de contraseñas o en papel; limbic sync --show-code lo vuelve a mostrar aquí. Perderlo no hace perder datos.</translation>
        </message>
        <message>
            <source>Apply these deletions?</source>
            <translation>¿Aplicar estos borrados?</translation>
        </message>
        <message>
            <source>

Apply them to this graph?</source>
            <translation>

¿Aplicarlos a este grafo?</translation>
        </message>
        <message>
            <source>Syncing…</source>
            <translation>Sincronizando…</translation>
        </message>
        <message>
            <source>Synced</source>
            <translation>Sincronizado</translation>
        </message>
        <message>
            <source>Sync waits</source>
            <translation>La sincronización espera</translation>
        </message>
        <message>
            <source>Sync folder unreachable</source>
            <translation>Carpeta de sincronización inaccesible</translation>
        </message>
        <message>
            <source>Sync needs the recovery code</source>
            <translation>La sincronización necesita el código de recuperación</translation>
        </message>
        <message numerus="yes">
            <source>%n sync conflicts</source>
            <translation>
                <numerusform>%Ln conflicto de sincronización</numerusform>
                <numerusform>%Ln conflictos de sincronización</numerusform>
            </translation>
        </message>
        <message>
            <source>Every change is exchanged with {folder}. Click to see past conflicts.</source>
            <translation>Cada cambio se intercambia con {folder}. Haz clic para ver los conflictos pasados.</translation>
        </message>
        <message>
            <source>Exchanging changes with {folder}.</source>
            <translation>Intercambiando cambios con {folder}.</translation>
        </message>
        <message>
            <source>Another program is syncing this graph; this window tries again shortly.</source>
            <translation>Otro programa está sincronizando este grafo; esta ventana lo vuelve a intentar en breve.</translation>
        </message>
        <message>
            <source>{folder} cannot be reached; sync resumes when it can.</source>
            <translation>No se puede acceder a {folder}; la sincronización se reanuda cuando se pueda.</translation>
        </message>
        <message>
            <source>Click to choose, for each, which value to keep.</source>
            <translation>Haz clic para elegir, en cada caso, qué valor conservar.</translation>
        </message>
        <message>
            <source>
Click to type it.</source>
            <translation>
Haz clic para escribirlo.</translation>
        </message>
        <message>
            <source>Sync is busy; try the new code again in a moment.</source>
            <translation>La sincronización está ocupada; prueba el código nuevo dentro de un momento.</translation>
        </message>
        <message>
            <source>sealing the folder anew</source>
            <translation>volver a sellar la carpeta</translation>
        </message>
        <message>
            <source>This graph no longer syncs from this device.</source>
            <translation>Este grafo ya no se sincroniza desde este dispositivo.</translation>
        </message>
        <message>
            <source>The sync folder {folder} does not exist; choose a folder that does.</source>
            <translation>La carpeta de sincronización {folder} no existe; elige una carpeta que exista.</translation>
        </message>
        <message>
            <source>reading the conflicts</source>
            <translation>leer los conflictos</translation>
        </message>
        <message>
            <source>Ctrl+Shift+Y shows the sync conflicts again.</source>
            <translation>Ctrl+Mayús+Y vuelve a mostrar los conflictos de sincronización.</translation>
        </message>
        <message>
            <source>resolving the conflict</source>
            <translation>resolver el conflicto</translation>
        </message>
        <message>
            <source>Your choice changed the entity you are editing; your unsaved edits stay, and saving applies only them.</source>
            <translation>Tu elección cambió la entidad que estás editando; tus cambios sin guardar se quedan, y al guardar solo se aplican ellos.</translation>
        </message>
        <message>
            <source>The entity you had open is deleted: you chose to delete it again.</source>
            <translation>La entidad que tenías abierta está borrada: elegiste volver a borrarla.</translation>
        </message>
        <message>
            <source>Another entity is named “{name}”; rename or merge it first.</source>
            <translation>Otra entidad se llama “{name}”; renómbrala o fusiónalas primero.</translation>
        </message>
        <message>
            <source>“{name}” is no longer in the graph: it was deleted again since. Choose “delete it again” to close this conflict, or bring it back from its history.</source>
            <translation>“{name}” ya no está en el grafo: se volvió a borrar después. Elige “volver a borrarlo” para cerrar este conflicto, o recupérala desde su historial.</translation>
        </message>
    </context>
    <context>
        <name>TimeBar</name>
        <message>
            <source>Play the graph's history</source>
            <translation>Reproducir la historia del grafo</translation>
        </message>
        <message>
            <source>Date shown in the graph</source>
            <translation>Fecha mostrada en el grafo</translation>
        </message>
        <message>
            <source>Drag to a date: the graph shows what existed then (arrow keys step, Home goes to the start)</source>
            <translation>Arrastra a una fecha: el grafo muestra lo que existía entonces (las flechas avanzan, Inicio va al principio)</translation>
        </message>
        <message>
            <source>Now</source>
            <translation>Ahora</translation>
        </message>
        <message>
            <source>The date shown, in UTC</source>
            <translation>La fecha mostrada, en UTC</translation>
        </message>
        <message>
            <source>Show the graph as it is now</source>
            <translation>Mostrar el grafo como es ahora</translation>
        </message>
        <message>
            <source>Show added</source>
            <translation>Mostrar lo añadido</translation>
        </message>
        <message>
            <source>Also draw, as outlines, the entities and relations that came after the date shown</source>
            <translation>Dibujar también, como contornos, las entidades y relaciones que llegaron después de la fecha mostrada</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>Pausa</translation>
        </message>
        <message>
            <source>Play the graph's history up to now</source>
            <translation>Reproducir la historia del grafo hasta ahora</translation>
        </message>
    </context>
    <context>
        <name>TimeTravel</name>
        <message>
            <source>Reading the history…</source>
            <translation>Leyendo la historia…</translation>
        </message>
        <message>
            <source>reading the graph's history</source>
            <translation>leer la historia del grafo</translation>
        </message>
        <message>
            <source>This graph keeps no history of its past to show.</source>
            <translation>Este grafo no guarda historia de su pasado que mostrar.</translation>
        </message>
        <message>
            <source>{entities} · {relations} then</source>
            <translation>{entities} · {relations} entonces</translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entidad</numerusform>
                <numerusform>%Ln entidades</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relación</numerusform>
                <numerusform>%Ln relaciones</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>◌ faded: %n entities gone since</source>
            <translation>
                <numerusform>◌ atenuadas: %Ln entidad desaparecida desde entonces</numerusform>
                <numerusform>◌ atenuadas: %Ln entidades desaparecidas desde entonces</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>○ outlined: %n entities added since</source>
            <translation>
                <numerusform>○ contorneadas: %Ln entidad añadida desde entonces</numerusform>
                <numerusform>○ contorneadas: %Ln entidades añadidas desde entonces</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities added since (not shown)</source>
            <translation>
                <numerusform>%Ln entidad añadida desde entonces (no se muestra)</numerusform>
                <numerusform>%Ln entidades añadidas desde entonces (no se muestran)</numerusform>
            </translation>
        </message>
        <message>
            <source>Nothing added or removed since this date.</source>
            <translation>Nada añadido ni quitado desde esta fecha.</translation>
        </message>
        <message>
            <source>Now</source>
            <translation>Ahora</translation>
        </message>
        <message>
            <source>{value} was deleted on {when} UTC.</source>
            <translation>{value} se borró el {when} UTC.</translation>
        </message>
    </context>
    <context>
        <name>Timeline</name>
        <message>
            <source>&lt;h3&gt;{e}&lt;/h3&gt;&lt;p&gt;{e2} · {e3} · created {e4}&lt;/p&gt;</source>
            <translation>&lt;h3&gt;{e}&lt;/h3&gt;&lt;p&gt;{e2} · {e3} · creada {e4}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;Also called: {e}&lt;/p&gt;</source>
            <translation>&lt;p&gt;También llamada: {e}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;h4&gt;Observations&lt;/h4&gt;</source>
            <translation>&lt;h4&gt;Observaciones&lt;/h4&gt;</translation>
        </message>
        <message>
            <source>&lt;h4&gt;Superseded by then&lt;/h4&gt;&lt;ul&gt;</source>
            <translation>&lt;h4&gt;Sustituidas para entonces&lt;/h4&gt;&lt;ul&gt;</translation>
        </message>
        <message>
            <source>&lt;h4&gt;Relations&lt;/h4&gt;</source>
            <translation>&lt;h4&gt;Relaciones&lt;/h4&gt;</translation>
        </message>
        <message>
            <source> (ended {when_words})</source>
            <translation> (terminó {when_words})</translation>
        </message>
    </context>
    <context>
        <name>TimelineFlow</name>
        <message>
            <source>When it &amp;held…</source>
            <translation>Cuándo fue &amp;cierto…</translation>
        </message>
        <message>
            <source>Say when this observation or relation held in the world, or clear it</source>
            <translation>Decir cuándo fue cierta en el mundo esta observación o relación, o borrarlo</translation>
        </message>
        <message>
            <source>reading the dates</source>
            <translation>leer las fechas</translation>
        </message>
        <message>
            <source>reading the timeline</source>
            <translation>leer la cronología</translation>
        </message>
        <message>
            <source>reading the entity as it was</source>
            <translation>leer la entidad tal como era</translation>
        </message>
        <message>
            <source>Setting dates</source>
            <translation>Poniendo fechas</translation>
        </message>
        <message>
            <source>This graph file is open read-only: dates cannot be set.</source>
            <translation>Este archivo de grafo está abierto en solo lectura: no se pueden poner fechas.</translation>
        </message>
        <message>
            <source>Choose a saved observation or relation first: dates are set on what is stored.</source>
            <translation>Elige primero una observación o relación guardada: las fechas se ponen sobre lo que está almacenado.</translation>
        </message>
        <message>
            <source>setting the dates</source>
            <translation>poner las fechas</translation>
        </message>
        <message>
            <source>Dates saved. Press Ctrl+Z to undo.</source>
            <translation>Fechas guardadas. Pulsa Ctrl+Z para deshacer.</translation>
        </message>
    </context>
    <context>
        <name>TimelineView</name>
        <message>
            <source>Timeline</source>
            <translation>Cronología</translation>
        </message>
        <message>
            <source>Click an event (or press Enter) to see the entity as it was then</source>
            <translation>Haz clic en un evento (o pulsa Intro) para ver la entidad tal como era entonces</translation>
        </message>
        <message>
            <source>{at} UTC — click to see the entity as it was then</source>
            <translation>{at} UTC — haz clic para ver la entidad tal como era entonces</translation>
        </message>
        <message>
            <source>Nothing is recorded about this entity yet.</source>
            <translation>Todavía no hay nada registrado sobre esta entidad.</translation>
        </message>
    </context>
    <context>
        <name>Timeslider</name>
        <message>
            <source>Drag to a date to see the graph as it was then.</source>
            <translation>Arrastra a una fecha para ver el grafo tal como era entonces.</translation>
        </message>
    </context>
    <context>
        <name>TypeRenameDialog</name>
        <message>
            <source>Rename entity type</source>
            <translation>Renombrar tipo de entidad</translation>
        </message>
        <message>
            <source>New name (an existing type merges the two)</source>
            <translation>Nombre nuevo (un tipo existente une los dos)</translation>
        </message>
        <message>
            <source>&amp;Type</source>
            <translation>&amp;Tipo</translation>
        </message>
        <message>
            <source>&amp;New name</source>
            <translation>&amp;Nombre nuevo</translation>
        </message>
        <message>
            <source>Rename</source>
            <translation>Renombrar</translation>
        </message>
        <message>
            <source>Every entity of the type gets the new name; Edit → Undo takes it back.</source>
            <translation>Todas las entidades del tipo reciben el nombre nuevo; Editar → Deshacer lo revierte.</translation>
        </message>
        <message>
            <source>There is no type to rename.</source>
            <translation>No hay ningún tipo que renombrar.</translation>
        </message>
        <message>
            <source>Type the new name for “{old}”.</source>
            <translation>Escribe el nombre nuevo de “{old}”.</translation>
        </message>
        <message>
            <source>“{old}” already has that name.</source>
            <translation>“{old}” ya tiene ese nombre.</translation>
        </message>
    </context>
    <context>
        <name>UndoController</name>
        <message>
            <source>&amp;Undo</source>
            <translation>&amp;Deshacer</translation>
        </message>
        <message>
            <source>Re&amp;do</source>
            <translation>&amp;Rehacer</translation>
        </message>
        <message>
            <source>&amp;Undo {undo_label}</source>
            <translation>&amp;Deshacer {undo_label}</translation>
        </message>
        <message>
            <source>Re&amp;do {redo_label}</source>
            <translation>&amp;Rehacer {redo_label}</translation>
        </message>
        <message>
            <source>Undo the {undo_label} (Ctrl+Z)</source>
            <translation>Deshacer: {undo_label} (Ctrl+Z)</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>Deshacer</translation>
        </message>
        <message>
            <source>Redo</source>
            <translation>Rehacer</translation>
        </message>
        <message>
            <source>Undone</source>
            <translation>Deshecho</translation>
        </message>
        <message>
            <source>Redone</source>
            <translation>Rehecho</translation>
        </message>
        <message>
            <source>undo</source>
            <translation>operación de deshacer</translation>
        </message>
        <message>
            <source>redo</source>
            <translation>operación de rehacer</translation>
        </message>
        <message>
            <source>undoing the {label}</source>
            <translation>deshacer: {label}</translation>
        </message>
        <message>
            <source>redoing the {label}</source>
            <translation>rehacer: {label}</translation>
        </message>
    </context>
    <context>
        <name>UndoWords</name>
        <message>
            <source>creation of “{a}”</source>
            <translation>creación de “{a}”</translation>
        </message>
        <message>
            <source>rename of “{a}”</source>
            <translation>cambio de nombre de “{a}”</translation>
        </message>
        <message>
            <source>type change of “{a}”</source>
            <translation>cambio de tipo de “{a}”</translation>
        </message>
        <message>
            <source>observation edit in “{a}”</source>
            <translation>edición de observaciones en “{a}”</translation>
        </message>
        <message>
            <source>relation change of “{a}”</source>
            <translation>cambio de relaciones de “{a}”</translation>
        </message>
        <message>
            <source>edit of “{a}”</source>
            <translation>edición de “{a}”</translation>
        </message>
        <message>
            <source>delete of “{a}”</source>
            <translation>borrado de “{a}”</translation>
        </message>
        <message>
            <source>import of “{a}”</source>
            <translation>importación de “{a}”</translation>
        </message>
        <message>
            <source>alias “{a}” of “{b}”</source>
            <translation>alias “{a}” de “{b}”</translation>
        </message>
        <message>
            <source>alias removal “{a}” of “{b}”</source>
            <translation>eliminación del alias “{a}” de “{b}”</translation>
        </message>
        <message>
            <source>merge of “{a}” into “{b}”</source>
            <translation>fusión de “{a}” en “{b}”</translation>
        </message>
        <message>
            <source>type rename of “{a}” to “{b}”</source>
            <translation>cambio del tipo “{a}” a “{b}”</translation>
        </message>
    </context>
    <context>
        <name>ValidTime</name>
        <message>
            <source>YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC); empty: open</source>
            <translation>AAAA-MM-DD o AAAA-MM-DD HH:MM (UTC); vacío: abierto</translation>
        </message>
    </context>
    <context>
        <name>Wording</name>
        <message>
            <source>less sure</source>
            <translation>menos seguro</translation>
        </message>
        <message>
            <source>Possible duplicates</source>
            <translation>Posibles duplicados</translation>
        </message>
        <message>
            <source>Repeated observations</source>
            <translation>Observaciones repetidas</translation>
        </message>
        <message>
            <source>Orphans</source>
            <translation>Huérfanas</translation>
        </message>
        <message>
            <source>Stale entities</source>
            <translation>Entidades viejas</translation>
        </message>
        <message>
            <source>Split candidates</source>
            <translation>Candidatas a dividir</translation>
        </message>
        <message>
            <source>Names with invisible characters</source>
            <translation>Nombres con caracteres invisibles</translation>
        </message>
        <message>
            <source>Merging keeps “{kept}”: {why}.</source>
            <translation>La fusión conserva “{kept}”: {why}.</translation>
        </message>
        <message>
            <source> and </source>
            <translation> y </translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;i&gt;Less sure than the pairs above it: shown because this graph is small.&lt;/i&gt;&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;i&gt;Menos seguro que los pares de arriba: se muestra porque este grafo es pequeño.&lt;/i&gt;&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;Score {score}&lt;/p&gt;</source>
            <translation>&lt;p&gt;Puntuación {score}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;Merge (M) shows what a merge would leave first; Not duplicates (D) if they are two things.&lt;/p&gt;</source>
            <translation>&lt;p&gt;Fusionar (M) muestra primero lo que dejaría una fusión; No son duplicados (D) si son dos cosas distintas.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;Open (O) to look at it, Dismiss (D) if it is fine as it is.&lt;/p&gt;</source>
            <translation>&lt;p&gt;Abrir (O) para verla, Descartar (D) si está bien como está.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;b&gt;{title}&lt;/b&gt;&lt;br&gt;&lt;big&gt;{name}&lt;/big&gt;&lt;br&gt;{etype} · {status}&lt;p&gt;Observations&lt;/p&gt;&lt;ul&gt;{items}&lt;/ul&gt;&lt;p&gt;Relations&lt;/p&gt;&lt;ul&gt;{rel}&lt;/ul&gt;</source>
            <translation>&lt;b&gt;{title}&lt;/b&gt;&lt;br&gt;&lt;big&gt;{name}&lt;/big&gt;&lt;br&gt;{etype} · {status}&lt;p&gt;Observaciones&lt;/p&gt;&lt;ul&gt;{items}&lt;/ul&gt;&lt;p&gt;Relaciones&lt;/p&gt;&lt;ul&gt;{rel}&lt;/ul&gt;</translation>
        </message>
        <message>
            <source>already there</source>
            <translation>ya estaba</translation>
        </message>
        <message>
            <source>already there in other words</source>
            <translation>ya estaba con otras palabras</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;The types differ:&lt;/b&gt; “{kept}” (kept) and “{other}”; choose below.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;Los tipos son distintos:&lt;/b&gt; “{kept}” (se conserva) y “{other}”; elige abajo.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;The statuses differ:&lt;/b&gt; “{kept}” (kept) and “{other}”; choose below.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;Los estados son distintos:&lt;/b&gt; “{kept}” (se conserva) y “{other}”; elige abajo.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;Also known as afterwards:&lt;/b&gt; {names}&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;También conocida después como:&lt;/b&gt; {names}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>Goes</source>
            <translation>Se va</translation>
        </message>
        <message>
            <source>Stays</source>
            <translation>Se queda</translation>
        </message>
        <message>
            <source>After the merge</source>
            <translation>Tras la fusión</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;Merge now (M)&lt;/b&gt; or Enter merges (Ctrl+Z undoes it), &lt;b&gt;Keep the other (S)&lt;/b&gt; swaps which one stays, Esc goes back.&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;Fusionar ahora (M)&lt;/b&gt; o Intro fusiona (Ctrl+Z lo deshace), &lt;b&gt;Conservar la otra (S)&lt;/b&gt; cambia cuál se queda, Esc vuelve.&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>Worker</name>
        <message>
            <source>No graph is open; open or create one from the File menu.</source>
            <translation>No hay ningún grafo abierto; abre o crea uno desde el menú Archivo.</translation>
        </message>
    </context>
    <context>
        <name>Zoom</name>
        <message>
            <source>Zoom &amp;in</source>
            <translation>&amp;Ampliar</translation>
        </message>
        <message>
            <source>Larger text everywhere</source>
            <translation>Texto más grande en todas partes</translation>
        </message>
        <message>
            <source>Zoom &amp;out</source>
            <translation>&amp;Reducir</translation>
        </message>
        <message>
            <source>Smaller text everywhere</source>
            <translation>Texto más pequeño en todas partes</translation>
        </message>
        <message>
            <source>&amp;Actual size</source>
            <translation>&amp;Tamaño real</translation>
        </message>
        <message>
            <source>The system's text size</source>
            <translation>El tamaño de texto del sistema</translation>
        </message>
        <message>
            <source>Text size {percent}%.</source>
            <translation>Tamaño del texto: {percent} %.</translation>
        </message>
    </context>
</TS>
