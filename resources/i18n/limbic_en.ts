<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>ActivityMenu</name>
        <message numerus="yes">
            <source>%n held for review</source>
            <translation>
                <numerusform>%Ln held for review</numerusform>
                <numerusform>%Ln held for review</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Reverted: %n pieces taken back (Ctrl+Z brings them back).</source>
            <translation>
                <numerusform>Reverted: %Ln piece taken back (Ctrl+Z brings it back).</numerusform>
                <numerusform>Reverted: %Ln pieces taken back (Ctrl+Z brings them back).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Reverted: %n pieces taken back, with the entity you had open (Ctrl+Z brings it back).</source>
            <translation>
                <numerusform>Reverted: %Ln piece taken back, with the entity you had open (Ctrl+Z brings it back).</numerusform>
                <numerusform>Reverted: %Ln pieces taken back, with the entity you had open (Ctrl+Z brings it back).</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ActivityPanel</name>
        <message numerus="yes">
            <source> · read %n entities</source>
            <translation>
                <numerusform> · read %Ln entity</numerusform>
                <numerusform> · read %Ln entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n taken back</source>
            <translation>
                <numerusform> · %Ln taken back</numerusform>
                <numerusform> · %Ln taken back</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n writes refused</source>
            <translation>
                <numerusform> · %Ln write refused</numerusform>
                <numerusform> · %Ln writes refused</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n changes</source>
            <translation>
                <numerusform>%Ln change</numerusform>
                <numerusform>%Ln changes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Refused %n writes ({why}), the last at {time} {day}; nothing of them was written.</source>
            <translation>
                <numerusform>Refused %Ln write ({why}), the last at {time} {day}; nothing of it was written.</numerusform>
                <numerusform>Refused %Ln writes ({why}), the last at {time} {day}; nothing of them was written.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ChangesSince</name>
        <message numerus="yes">
            <source>{entity} — %n changes</source>
            <translation>
                <numerusform>{entity} — %Ln change</numerusform>
                <numerusform>{entity} — %Ln changes</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ChangesSinceView</name>
        <message numerus="yes">
            <source>%n entities changed.</source>
            <translation>
                <numerusform>%Ln entity changed.</numerusform>
                <numerusform>%Ln entities changed.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities changed; the first {listed} by name are listed.</source>
            <translation>
                <numerusform>%Ln entity changed; the first {listed} by name are listed.</numerusform>
                <numerusform>%Ln entities changed; the first {listed} by name are listed.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>CsvPreviewDialog</name>
        <message numerus="yes">
            <source>%n rows</source>
            <translation>
                <numerusform>%Ln row</numerusform>
                <numerusform>%Ln rows</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EngineWorker</name>
        <message numerus="yes">
            <source>Embedding %n entities</source>
            <translation>
                <numerusform>Embedding %Ln entity</numerusform>
                <numerusform>Embedding %Ln entities</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityBrowser</name>
        <message numerus="yes">
            <source>%n entities match</source>
            <translation>
                <numerusform>%Ln entity matches</numerusform>
                <numerusform>%Ln entities match</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entity</numerusform>
                <numerusform>%Ln entities</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityFlow</name>
        <message numerus="yes">
            <source>%n new observations from {source} since you started editing; saving keeps them and your edits.</source>
            <translation>
                <numerusform>%Ln new observation from {source} since you started editing; saving keeps it and your edits.</numerusform>
                <numerusform>%Ln new observations from {source} since you started editing; saving keeps them and your edits.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>FileMenu</name>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entity</numerusform>
                <numerusform>%Ln entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relation</numerusform>
                <numerusform>%Ln relations</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphCanvas</name>
        <message numerus="yes">
            <source>{name} ({kind}) · %n relations{extra}</source>
            <translation>
                <numerusform>{name} ({kind}) · %Ln relation{extra}</numerusform>
                <numerusform>{name} ({kind}) · %Ln relations{extra}</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphExportsMixin</name>
        <message numerus="yes">
            <source>Exported %n entities to {path}.</source>
            <translation>
                <numerusform>Exported %Ln entity to {path}.</numerusform>
                <numerusform>Exported %Ln entities to {path}.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphPanel</name>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entity</numerusform>
                <numerusform>%Ln entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relation</numerusform>
                <numerusform>%Ln relations</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n suggestions</source>
            <translation>
                <numerusform>%Ln suggestion</numerusform>
                <numerusform>%Ln suggestions</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>HealthView</name>
        <message numerus="yes">
            <source>%n entities checked in {took}.</source>
            <translation>
                <numerusform>%Ln entity checked in {took}.</numerusform>
                <numerusform>%Ln entities checked in {took}.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>HeldRows</name>
        <message numerus="yes">
            <source>“{who}” · %n writes held for your review</source>
            <translation>
                <numerusform>“{who}” · %Ln write held for your review</numerusform>
                <numerusform>“{who}” · %Ln writes held for your review</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n held for your review</source>
            <translation>
                <numerusform> · %Ln held for your review</numerusform>
                <numerusform> · %Ln held for your review</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ImportProblemsDialog</name>
        <message numerus="yes">
            <source>%n lines</source>
            <translation>
                <numerusform>%Ln line</numerusform>
                <numerusform>%Ln lines</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ImportWords</name>
        <message numerus="yes">
            <source>%n entities read</source>
            <translation>
                <numerusform>%Ln entity read</numerusform>
                <numerusform>%Ln entities read</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n observations</source>
            <translation>
                <numerusform>%Ln observation</numerusform>
                <numerusform>%Ln observations</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relation</numerusform>
                <numerusform>%Ln relations</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Legend</name>
        <message numerus="yes">
            <source>+%n more types</source>
            <translation>
                <numerusform>+%Ln more type</numerusform>
                <numerusform>+%Ln more types</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>OrganiseMenu</name>
        <message numerus="yes">
            <source>Renamed the type “{old}” to “{new}” on %n entities. Press Ctrl+Z to undo.</source>
            <translation>
                <numerusform>Renamed the type “{old}” to “{new}” on %Ln entity. Press Ctrl+Z to undo.</numerusform>
                <numerusform>Renamed the type “{old}” to “{new}” on %Ln entities. Press Ctrl+Z to undo.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ResultModel</name>
        <message numerus="yes">
            <source>%n results</source>
            <translation>
                <numerusform>%Ln result</numerusform>
                <numerusform>%Ln results</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n weak matches (under {share} of the best) not shown</source>
            <translation>
                <numerusform> · %Ln weak match (under {share} of the best) not shown</numerusform>
                <numerusform> · %Ln weak matches (under {share} of the best) not shown</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RevertPreview</name>
        <message numerus="yes">
            <source>It will keep %n pieces you changed since (your edits stay as you left them):</source>
            <translation>
                <numerusform>It will keep %Ln piece you changed since (your edits stay as you left them):</numerusform>
                <numerusform>It will keep %Ln pieces you changed since (your edits stay as you left them):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>It will keep %n pieces another writer changed since (their work stays as they left it):</source>
            <translation>
                <numerusform>It will keep %Ln piece another writer changed since (their work stays as they left it):</numerusform>
                <numerusform>It will keep %Ln pieces another writer changed since (their work stays as they left it):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>It will keep %n pieces you or another writer changed since (each stays as it was left):</source>
            <translation>
                <numerusform>It will keep %Ln piece you or another writer changed since (each stays as it was left):</numerusform>
                <numerusform>It will keep %Ln pieces you or another writer changed since (each stays as it was left):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>It will take back %n pieces:</source>
            <translation>
                <numerusform>It will take back %Ln piece:</numerusform>
                <numerusform>It will take back %Ln pieces:</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SampleGraph</name>
        <message numerus="yes">
            <source>Load the sample graph into “{graph}”? Its 50 entities would join the %n already there (Edit → Undo takes them back).</source>
            <translation>
                <numerusform>Load the sample graph into “{graph}”? Its 50 entities would join the %Ln already there (Edit → Undo takes them back).</numerusform>
                <numerusform>Load the sample graph into “{graph}”? Its 50 entities would join the %Ln already there (Edit → Undo takes them back).</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SearchFilters</name>
        <message numerus="yes">
            <source>%n+ entities match; type to search them</source>
            <translation>
                <numerusform>%Ln+ entity matches; type to search it</numerusform>
                <numerusform>%Ln+ entities match; type to search them</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities match; type to search them</source>
            <translation>
                <numerusform>%Ln entity matches; type to search it</numerusform>
                <numerusform>%Ln entities match; type to search them</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n hits hidden by them</source>
            <translation>
                <numerusform>%Ln hit hidden by them</numerusform>
                <numerusform>%Ln hits hidden by them</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SearchFlow</name>
        <message numerus="yes">
            <source>%n entities wait for embedding and are found by their words only</source>
            <translation>
                <numerusform>%Ln entity waits for embedding and is found by its words only</numerusform>
                <numerusform>%Ln entities wait for embedding and are found by their words only</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>StatusPanel</name>
        <message numerus="yes">
            <source>… and %n more lines</source>
            <translation>
                <numerusform>… and %Ln more line</numerusform>
                <numerusform>… and %Ln more lines</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entity</numerusform>
                <numerusform>%Ln entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relation</numerusform>
                <numerusform>%Ln relations</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n by words only</source>
            <translation>
                <numerusform>%Ln by words only</numerusform>
                <numerusform>%Ln by words only</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities wait for embedding: until their vectors come they are found by their words only</source>
            <translation>
                <numerusform>%Ln entity waits for embedding: until its vector comes it is found by its words only</numerusform>
                <numerusform>%Ln entities wait for embedding: until their vectors come they are found by their words only</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SyncFlow</name>
        <message numerus="yes">
            <source>%n changes</source>
            <translation>
                <numerusform>%Ln change</numerusform>
                <numerusform>%Ln changes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n sync conflicts</source>
            <translation>
                <numerusform>%Ln sync conflict</numerusform>
                <numerusform>%Ln sync conflicts</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>TimeTravel</name>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%Ln entity</numerusform>
                <numerusform>%Ln entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%Ln relation</numerusform>
                <numerusform>%Ln relations</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>◌ faded: %n entities gone since</source>
            <translation>
                <numerusform>◌ faded: %Ln entity gone since</numerusform>
                <numerusform>◌ faded: %Ln entities gone since</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>○ outlined: %n entities added since</source>
            <translation>
                <numerusform>○ outlined: %Ln entity added since</numerusform>
                <numerusform>○ outlined: %Ln entities added since</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities added since (not shown)</source>
            <translation>
                <numerusform>%Ln entity added since (not shown)</numerusform>
                <numerusform>%Ln entities added since (not shown)</numerusform>
            </translation>
        </message>
    </context>
</TS>
