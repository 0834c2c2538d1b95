<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>ActivityMenu</name>
        <message numerus="yes">
            <source>Reverted: %n pieces taken back (Ctrl+Z brings them back).</source>
            <translation>
                <numerusform>Reverted: %n piece taken back (Ctrl+Z brings it back).</numerusform>
                <numerusform>Reverted: %n pieces taken back (Ctrl+Z brings them back).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Reverted: %n pieces taken back, with the entity you had open (Ctrl+Z brings it back).</source>
            <translation>
                <numerusform>Reverted: %n piece taken back, with the entity you had open (Ctrl+Z brings it back).</numerusform>
                <numerusform>Reverted: %n pieces taken back, with the entity you had open (Ctrl+Z brings it back).</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ActivityPanel</name>
        <message numerus="yes">
            <source> · read %n entities</source>
            <translation>
                <numerusform> · read %n entity</numerusform>
                <numerusform> · read %n entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n taken back</source>
            <translation>
                <numerusform> · %n taken back</numerusform>
                <numerusform> · %n taken back</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n writes refused</source>
            <translation>
                <numerusform> · %n write refused</numerusform>
                <numerusform> · %n writes refused</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n changes</source>
            <translation>
                <numerusform>%n change</numerusform>
                <numerusform>%n changes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Refused %n writes ({why}), the last at {time} {day}; nothing of them was written.</source>
            <translation>
                <numerusform>Refused %n write ({why}), the last at {time} {day}; nothing of it was written.</numerusform>
                <numerusform>Refused %n writes ({why}), the last at {time} {day}; nothing of them was written.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ChangesSince</name>
        <message numerus="yes">
            <source>{entity} — %n changes</source>
            <translation>
                <numerusform>{entity} — %n change</numerusform>
                <numerusform>{entity} — %n changes</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ChangesSinceView</name>
        <message numerus="yes">
            <source>%n entities changed.</source>
            <translation>
                <numerusform>%n entity changed.</numerusform>
                <numerusform>%n entities changed.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>CsvPreviewDialog</name>
        <message numerus="yes">
            <source>%n rows</source>
            <translation>
                <numerusform>%n row</numerusform>
                <numerusform>%n rows</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EngineWorker</name>
        <message numerus="yes">
            <source>Embedding %n entities</source>
            <translation>
                <numerusform>Embedding %n entity</numerusform>
                <numerusform>Embedding %n entities</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityBrowser</name>
        <message numerus="yes">
            <source>%n entities match</source>
            <translation>
                <numerusform>%n entity matches</numerusform>
                <numerusform>%n entities match</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%n entity</numerusform>
                <numerusform>%n entities</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>EntityFlow</name>
        <message numerus="yes">
            <source>%n new observations from {source} since you started editing; saving keeps them and your edits.</source>
            <translation>
                <numerusform>%n new observation from {source} since you started editing; saving keeps it and your edits.</numerusform>
                <numerusform>%n new observations from {source} since you started editing; saving keeps them and your edits.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>FileMenu</name>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%n entity</numerusform>
                <numerusform>%n entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%n relation</numerusform>
                <numerusform>%n relations</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphCanvas</name>
        <message numerus="yes">
            <source>{name} ({kind}) · %n relations{extra}</source>
            <translation>
                <numerusform>{name} ({kind}) · %n relation{extra}</numerusform>
                <numerusform>{name} ({kind}) · %n relations{extra}</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphExportsMixin</name>
        <message numerus="yes">
            <source>Exported %n entities to {path}.</source>
            <translation>
                <numerusform>Exported %n entity to {path}.</numerusform>
                <numerusform>Exported %n entities to {path}.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GraphPanel</name>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%n entity</numerusform>
                <numerusform>%n entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%n relation</numerusform>
                <numerusform>%n relations</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n suggestions</source>
            <translation>
                <numerusform>%n suggestion</numerusform>
                <numerusform>%n suggestions</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>HealthView</name>
        <message numerus="yes">
            <source>%n entities checked in {took}.</source>
            <translation>
                <numerusform>%n entity checked in {took}.</numerusform>
                <numerusform>%n entities checked in {took}.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ImportProblemsDialog</name>
        <message numerus="yes">
            <source>%n lines</source>
            <translation>
                <numerusform>%n line</numerusform>
                <numerusform>%n lines</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Legend</name>
        <message numerus="yes">
            <source>+%n more types</source>
            <translation>
                <numerusform>+%n more type</numerusform>
                <numerusform>+%n more types</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>OrganiseMenu</name>
        <message numerus="yes">
            <source>Renamed the type “{old}” to “{new}” on %n entities. Press Ctrl+Z to undo.</source>
            <translation>
                <numerusform>Renamed the type “{old}” to “{new}” on %n entity. Press Ctrl+Z to undo.</numerusform>
                <numerusform>Renamed the type “{old}” to “{new}” on %n entities. Press Ctrl+Z to undo.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ResultModel</name>
        <message numerus="yes">
            <source>%n results</source>
            <translation>
                <numerusform>%n result</numerusform>
                <numerusform>%n results</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> · %n weak matches (under {share} of the best) not shown</source>
            <translation>
                <numerusform> · %n weak match (under {share} of the best) not shown</numerusform>
                <numerusform> · %n weak matches (under {share} of the best) not shown</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RevertPreview</name>
        <message numerus="yes">
            <source>%n pieces</source>
            <translation>
                <numerusform>%n piece</numerusform>
                <numerusform>%n pieces</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>It will take back %n pieces:</source>
            <translation>
                <numerusform>It will take back %n piece:</numerusform>
                <numerusform>It will take back %n pieces:</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SampleGraph</name>
        <message numerus="yes">
            <source>Load the sample graph into “{graph}”? Its 50 entities would join the %n already there (Edit → Undo takes them back).</source>
            <translation>
                <numerusform>Load the sample graph into “{graph}”? Its 50 entities would join the %n already there (Edit → Undo takes them back).</numerusform>
                <numerusform>Load the sample graph into “{graph}”? Its 50 entities would join the %n already there (Edit → Undo takes them back).</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SearchFilters</name>
        <message numerus="yes">
            <source>%n+ entities match; type to search them</source>
            <translation>
                <numerusform>%n+ entity matches; type to search it</numerusform>
                <numerusform>%n+ entities match; type to search them</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities match; type to search them</source>
            <translation>
                <numerusform>%n entity matches; type to search it</numerusform>
                <numerusform>%n entities match; type to search them</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n hits hidden by them</source>
            <translation>
                <numerusform>%n hit hidden by them</numerusform>
                <numerusform>%n hits hidden by them</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>StatusPanel</name>
        <message numerus="yes">
            <source>… and %n more lines</source>
            <translation>
                <numerusform>… and %n more line</numerusform>
                <numerusform>… and %n more lines</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%n entity</numerusform>
                <numerusform>%n entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%n relation</numerusform>
                <numerusform>%n relations</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>SyncFlow</name>
        <message numerus="yes">
            <source>%n changes</source>
            <translation>
                <numerusform>%n change</numerusform>
                <numerusform>%n changes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n sync conflicts</source>
            <translation>
                <numerusform>%n sync conflict</numerusform>
                <numerusform>%n sync conflicts</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>TimeTravel</name>
        <message numerus="yes">
            <source>%n entities</source>
            <translation>
                <numerusform>%n entity</numerusform>
                <numerusform>%n entities</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n relations</source>
            <translation>
                <numerusform>%n relation</numerusform>
                <numerusform>%n relations</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>◌ faded: %n entities gone since</source>
            <translation>
                <numerusform>◌ faded: %n entity gone since</numerusform>
                <numerusform>◌ faded: %n entities gone since</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>○ outlined: %n entities added since</source>
            <translation>
                <numerusform>○ outlined: %n entity added since</numerusform>
                <numerusform>○ outlined: %n entities added since</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n entities added since (not shown)</source>
            <translation>
                <numerusform>%n entity added since (not shown)</numerusform>
                <numerusform>%n entities added since (not shown)</numerusform>
            </translation>
        </message>
    </context>
</TS>
